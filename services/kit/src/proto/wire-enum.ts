// Enumerations declared once as proto enums and carried as strings on the wire (tt/options/v1/wire.proto): the
// wire names of an enum, the enum a field names with `(tt.options.v1.field).in_enum`, and the strings such a field
// accepts. The input-rules interceptor and the gateway's OpenAPI schemas both read them from here.
import { getOption, hasOption, type DescEnum, type DescField, type DescFile } from "@bufbuild/protobuf";
import { field as fieldOption } from "@tt/proto/tt/options/v1/field_pb";
import { wire as wireOption } from "@tt/proto/tt/options/v1/wire_pb";

const namesOfEnum = new WeakMap<DescEnum, readonly string[]>();

/** The wire names of an enum's values, in declaration order; the zero value and values without `wire` are left out. */
export function wireNamesOf(desc: DescEnum): readonly string[] {
  let names = namesOfEnum.get(desc);
  if (!names) {
    names = desc.values.filter((v) => hasOption(v, wireOption)).map((v) => getOption(v, wireOption));
    namesOfEnum.set(desc, names);
  }
  return names;
}

/** The wire name of one value of an enum (`wireName(MusicProviderSchema, MusicProvider.SPOTIFY)` → "spotify"). */
export function wireName(desc: DescEnum, value: number): string {
  const v = desc.values.find((x) => x.number === value);
  if (!v || !hasOption(v, wireOption)) throw new Error(`${desc.typeName} has no wire name for ${value}`);
  return getOption(v, wireOption);
}

/** The enum value a wire name stands for, or undefined (`enumOfWire(MusicProviderSchema, "spotify")`). */
export function enumOfWire(desc: DescEnum, name: string): number | undefined {
  return desc.values.find((v) => hasOption(v, wireOption) && getOption(v, wireOption) === name)?.number;
}

function findEnum(file: DescFile, typeName: string, seen = new Set<DescFile>()): DescEnum | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const here = file.enums.find((e) => e.typeName === typeName) ?? nestedEnum(file, typeName);
  if (here) return here;
  for (const dep of file.dependencies) {
    const found = findEnum(dep, typeName, seen);
    if (found) return found;
  }
  return undefined;
}

function nestedEnum(file: DescFile, typeName: string): DescEnum | undefined {
  const stack = [...file.messages];
  while (stack.length > 0) {
    const m = stack.pop()!;
    const e = m.nestedEnums.find((x) => x.typeName === typeName);
    if (e) return e;
    stack.push(...m.nestedMessages);
  }
  return undefined;
}

/**
 * The enum a field names with `in_enum`: undefined when it names none; an Error (not thrown) when the name does
 * not resolve in the field's file and its imports, or a value of the enum lacks its wire name.
 */
export function inEnumOf(field: DescField): DescEnum | Error | undefined {
  if (!hasOption(field, fieldOption)) return undefined;
  const name = getOption(field, fieldOption).inEnum;
  if (!name) return undefined;
  const desc = findEnum(field.parent.file, name);
  if (!desc) return new Error(`names in_enum "${name}", which is not an enum of its file or of a file it imports`);
  const bare = desc.values.filter((v) => v.number !== 0 && !hasOption(v, wireOption)).map((v) => v.name);
  if (bare.length > 0) return new Error(`names in_enum "${name}", whose values ${bare.join(", ")} have no wire name`);
  return desc;
}

/** Every string a field's `in` and `in_enum` rules accept together (empty when it declares neither). */
export function allowedStringsOf(field: DescField): readonly string[] {
  if (!hasOption(field, fieldOption)) return [];
  const listed = getOption(field, fieldOption).in;
  const desc = inEnumOf(field);
  const fromEnum = desc && !(desc instanceof Error) ? wireNamesOf(desc) : [];
  return fromEnum.length === 0 ? listed : [...new Set([...listed, ...fromEnum])];
}
