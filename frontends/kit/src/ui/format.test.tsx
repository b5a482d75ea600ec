import { screen } from "@testing-library/react";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import { createFormatters, useFormat } from "./format.ts";
import { humanise, useNameOptions, useNames } from "./names.ts";

// 2 December 2026, 01:30 in the reader's time zone (the test's), and a value as a service sends it.
const WHEN = new Date(2026, 11, 2, 1, 30);
const ISO = /\d{4}-\d{2}-\d{2}|T\d{2}:\d{2}/;

function Dates() {
  const format = useFormat();
  return (
    <ul>
      <li data-testid="date">{format.date(WHEN)}</li>
      <li data-testid="dateTime">{format.dateTime(WHEN.toISOString())}</li>
      <li data-testid="time">{format.time(WHEN.getTime())}</li>
      <li data-testid="number">{format.number(1234567)}</li>
      <li data-testid="relative">{format.relative(new Date(WHEN.getTime() - 3 * 60_000), WHEN)}</li>
      <li data-testid="duration">{format.duration(187)}</li>
      <li data-testid="none">{format.date(undefined)}</li>
    </ul>
  );
}

const shown = (id: string) => screen.getByTestId(id).textContent ?? "";

describe("useFormat", () => {
  it("writes dates, times and numbers in English, never as ISO strings", () => {
    renderWithKit(<Dates />, createTestKit({ search: "?lang=en" }));
    expect(shown("date")).toMatch(/December 2, 2026|2 December 2026/);
    expect(shown("dateTime")).toMatch(/December/);
    expect(shown("time")).toMatch(/01:30/);
    expect(shown("number")).toBe("1,234,567");
    expect(shown("relative")).toBe("3 minutes ago");
    expect(shown("duration")).toBe("3:07");
    expect(shown("none")).toBe("");
    for (const id of ["date", "dateTime", "time"]) expect(shown(id)).not.toMatch(ISO);
  });

  it("writes them in Spanish with ?lang=es", () => {
    renderWithKit(<Dates />, createTestKit({ search: "?lang=es" }));
    expect(shown("date")).toBe("2 de diciembre de 2026");
    expect(shown("dateTime")).toMatch(/2 de diciembre/);
    expect(shown("number")).toMatch(/^1\.234\.567$|^1 234 567$/);
    expect(shown("relative")).toBe("hace 3 minutos");
    for (const id of ["date", "dateTime", "time"]) expect(shown(id)).not.toMatch(ISO);
  });

  it("takes a protobuf timestamp, a bigint of milliseconds and bad input", () => {
    const format = createFormatters("en");
    expect(format.date({ toDate: () => WHEN })).toBe(format.date(WHEN));
    // What the services send: a google.protobuf.Timestamp message (seconds as a bigint, nanos).
    expect(format.dateTime({ seconds: BigInt(WHEN.getTime() / 1000), nanos: 0 })).toBe(format.dateTime(WHEN));
    expect(format.date({ seconds: BigInt(WHEN.getTime() / 1000) })).toMatch(/2026/);
    expect(format.date(BigInt(WHEN.getTime()))).toBe(format.date(WHEN));
    expect(format.date("not a date")).toBe("");
    expect(format.duration(3725)).toBe("1:02:05");
  });
});

function Names() {
  const name = useNames();
  const options = useNameOptions("capability", ["uploadMusic", "promoteRoom"]);
  return (
    <ul>
      <li data-testid="provider">{name("provider", "soundCloudPublic")}</li>
      <li data-testid="upload">{name("provider", "uploadService")}</li>
      <li data-testid="queue">{name("crate", "default")}</li>
      <li data-testid="likes">{name("crate", "tt-stars")}</li>
      <li data-testid="design">{name("design", "FERRY_BUILDING")}</li>
      <li data-testid="role">{name("roomRole", "coOwner")}</li>
      <li data-testid="unknown">{name("design", "NEON_CAVE")}</li>
      <li data-testid="unknownCamel">{name("capability", "hostEvents")}</li>
      <li data-testid="options">{options.map((option) => `${option.value}=${option.label}`).join(",")}</li>
    </ul>
  );
}

describe("useNames", () => {
  it("turns internal names into words", () => {
    renderWithKit(<Names />, createTestKit({ search: "?lang=en" }));
    expect(shown("provider")).toBe("SoundCloud");
    expect(shown("upload")).toBe("Your uploads");
    expect(shown("queue")).toBe("Queue");
    expect(shown("likes")).toBe("Likes");
    expect(shown("design")).toBe("Ferry Building");
    expect(shown("role")).toBe("Co-owner");
    expect(shown("options")).toBe("uploadMusic=Upload music,promoteRoom=Promote rooms");
  });

  it("spaces out a value it has no word for, rather than showing it raw", () => {
    renderWithKit(<Names />, createTestKit({ search: "?lang=en" }));
    expect(shown("unknown")).toBe("Neon cave");
    expect(shown("unknownCamel")).toBe("Host events");
    expect(humanise("tt-stars")).toBe("Tt stars");
  });

  it("speaks Spanish with ?lang=es", () => {
    const kit = createTestKit({ search: "?lang=es" });
    renderWithKit(<Names />, kit);
    expect(shown("queue")).toBe("Cola");
    expect(shown("likes")).toBe("Me gusta");
    expect(shown("upload")).toBe("Tus subidas");
    expect(shown("role")).toBe("Copropietario");
  });
});
