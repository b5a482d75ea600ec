// How many processes distributed mode runs of each workload (issue 28 finding 5): one number for every service and
// worker (`2`), or by workload name (`social=2,room=2`; a worker by its own name, `upload-worker=2`), the others one.
// The same text is read from `--replicas` on the command line and from the REPLICAS variable.

/** Every workload one process, or `count` of each, or a count by workload name (the others one). */
export type ReplicaCounts = number | Readonly<Record<string, number>>;

/** The most processes of one workload: each is a full service process on a shared machine. */
export const MAX_REPLICAS = 16;

export class ReplicasError extends Error {
  override name = "ReplicasError";
}

const count = (text: string, where: string): number => {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(n) || n < 1 || n > MAX_REPLICAS) {
    throw new ReplicasError(`${where}: "${text}" is not a number of processes from 1 to ${MAX_REPLICAS}`);
  }
  return n;
};

/**
 * Reads `2` or `social=2,room=2` (blanks around the parts are ignored). `where` names the source in errors
 * (`--replicas`, `REPLICAS`); `workloads` are the names that may be given.
 */
export function parseReplicas(text: string, where: string, workloads: readonly string[]): ReplicaCounts {
  const trimmed = text.trim();
  if (trimmed === "") throw new ReplicasError(`${where}: give a number (2) or name=number pairs (social=2,room=2)`);
  if (!trimmed.includes("=")) return count(trimmed, where);
  const counts: Record<string, number> = {};
  for (const part of trimmed.split(",")) {
    const pair = part.trim();
    if (pair === "") continue;
    const at = pair.indexOf("=");
    if (at <= 0) throw new ReplicasError(`${where}: "${pair}" is not name=number (social=2)`);
    const name = pair.slice(0, at).trim();
    if (!workloads.includes(name)) {
      throw new ReplicasError(`${where}: "${name}" is not a service or worker (${workloads.join(", ")})`);
    }
    if (name in counts) throw new ReplicasError(`${where}: "${name}" is given twice`);
    counts[name] = count(pair.slice(at + 1), `${where} ${name}`);
  }
  return counts;
}

/** Checks counts given as an option (a number, or names the runner knows). */
export function checkReplicas(counts: ReplicaCounts, where: string, workloads: readonly string[]): ReplicaCounts {
  if (typeof counts === "number") return count(String(counts), where);
  for (const [name, n] of Object.entries(counts)) {
    if (!workloads.includes(name)) {
      throw new ReplicasError(`${where}: "${name}" is not a service or worker (${workloads.join(", ")})`);
    }
    count(String(n), `${where} ${name}`);
  }
  return counts;
}

/** How many processes of `workload` to run. */
export function replicasOf(counts: ReplicaCounts, workload: string): number {
  return typeof counts === "number" ? counts : (counts[workload] ?? 1);
}

/**
 * The value of `--replicas` in command-line arguments (`--replicas social=2` or `--replicas=social=2`), undefined
 * when absent; the last one wins.
 */
export function replicasArgument(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--replicas") {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--")) throw new ReplicasError("--replicas: give a value (social=2)");
      value = next;
      i++;
    } else if (arg.startsWith("--replicas=")) {
      value = arg.slice("--replicas=".length);
    }
  }
  return value;
}
