// Issue 28 finding 5: how many processes distributed mode runs of each workload, from `--replicas` or REPLICAS.
import { describe, expect, it } from "vitest";
import { checkReplicas, parseReplicas, replicasArgument, replicasOf, ReplicasError } from "./replicas.ts";

const workloads = ["user", "room", "social", "upload", "upload-worker"];

describe("replica counts", () => {
  it("reads one number for every workload, or name=number pairs with the others at one", () => {
    expect(parseReplicas("2", "REPLICAS", workloads)).toBe(2);
    const counts = parseReplicas(" social=2, room = 3 ,upload-worker=2", "REPLICAS", workloads);
    expect(counts).toEqual({ social: 2, room: 3, "upload-worker": 2 });
    expect(["user", "room", "social", "upload", "upload-worker"].map((w) => replicasOf(counts, w))).toEqual([
      1, 3, 2, 1, 2,
    ]);
    expect(replicasOf(2, "upload-worker")).toBe(2);
  });

  it("refuses what it cannot read, naming where it came from", () => {
    const refused = (text: string) => () => parseReplicas(text, "--replicas", workloads);
    expect(refused("")).toThrow(ReplicasError);
    expect(refused("")).toThrow("--replicas: give a number (2) or name=number pairs (social=2,room=2)");
    expect(refused("0")).toThrow('--replicas: "0" is not a number of processes from 1 to 16');
    expect(refused("two")).toThrow('--replicas: "two" is not a number of processes from 1 to 16');
    expect(refused("social=1.5")).toThrow('--replicas social: "1.5" is not a number of processes from 1 to 16');
    expect(refused("gateway=2")).toThrow('--replicas: "gateway" is not a service or worker (user, room,');
    expect(refused("=2")).toThrow('--replicas: "=2" is not name=number (social=2)');
    expect(refused("social=2,social=3")).toThrow('--replicas: "social" is given twice');
    expect(() => checkReplicas({ chat: 2 }, "replicas", workloads)).toThrow('replicas: "chat" is not a service');
    expect(() => checkReplicas(0, "replicas", workloads)).toThrow('replicas: "0" is not a number');
    expect(checkReplicas({ social: 2 }, "replicas", workloads)).toEqual({ social: 2 });
  });

  it("takes --replicas from the command line, spaced or with =, the last one winning", () => {
    expect(replicasArgument([])).toBeUndefined();
    expect(replicasArgument(["--replicas", "social=2"])).toBe("social=2");
    expect(replicasArgument(["--replicas=2", "--replicas", "room=2"])).toBe("room=2");
    expect(() => replicasArgument(["--replicas"])).toThrow("--replicas: give a value (social=2)");
  });
});
