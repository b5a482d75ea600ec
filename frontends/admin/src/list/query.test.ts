import { describe, expect, it } from "vitest";
import { buildQuery, type FilterSpec } from "./query.ts";

const filters: FilterSpec[] = [
  { id: "name", field: "name", op: "$contL", label: "Name" },
  { id: "from", field: "createdAt", op: "$gte", label: "From", type: "datetime" },
  { id: "to", field: "createdAt", op: "$lte", label: "To", type: "datetime" },
];

describe("buildQuery", () => {
  it("sends page, limit, sort and the filled filters in the query language", () => {
    const query = buildQuery(
      {
        page: 3,
        sort: { field: "name", dir: "DESC" },
        filters: { name: " jazz ", from: "2026-01-02T03:04:00Z", to: "" },
      },
      filters,
      20,
    );
    expect(query).toEqual({
      limit: 20,
      page: 3,
      sort: ["name,DESC"],
      filter: ["name||$contL||jazz", "createdAt||$gte||2026-01-02T03:04:00.000Z"],
    });
  });

  it("drops what cannot be sent: empty values, bad dates, the separator inside a value", () => {
    const query = buildQuery({ page: 0, filters: { name: "a||$eq||b", from: "not a date" } }, filters, 10);
    expect(query).toEqual({ limit: 10, page: 1, sort: [], filter: ["name||$contL||a$eqb"] });
  });
});
