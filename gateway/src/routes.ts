// The routing table: every `google.api.http` rule (and its additional bindings) of every registered
// service, compiled once at start — template parsed, fields resolved, renderer built — so a request does
// no reflection set-up.
import {
  getOption,
  hasOption,
  type DescMethod,
  type DescMethodUnary,
  type DescService,
  type Registry,
} from "@bufbuild/protobuf";
import { access } from "@tt/proto/tt/options/v1/access_pb";
import { http } from "@tt/proto/google/api/annotations_pb";
import type { HttpRule } from "@tt/proto/google/api/http_pb";
import { compileBinding, BindingDefinitionError, type Binding } from "./bind.ts";
import { createMatcher, type MatcherEntry, type RouteMatch } from "./match.ts";
import { compileRawRenderer, compileRenderer, type RawRenderer, type Renderer } from "./respond.ts";
import { parseTemplate, type PathTemplate } from "./template/parse.ts";

export interface Route {
  /** Upper-case HTTP method. */
  httpMethod: string;
  /** The template as written in the proto. */
  pattern: string;
  template: PathTemplate;
  service: DescService;
  method: DescMethod;
  /** The rule's `body` and `response_body`. */
  body: string;
  responseBody: string;
  binding: Binding;
  render: Renderer;
  /** Set when the answer is a google.api.HttpBody: its bytes go out as they are, with its content type. */
  raw?: RawRenderer;
  /** Index of the backend in the gateway's options. */
  backend: number;
  /** The method's access precheck (tt.options.v1.access `precheck`), asked before the body is read. */
  precheck?: DescMethodUnary;
}

export interface RouteTable {
  readonly routes: readonly Route[];
  /** Throws `MatchError` (404, 405, 400). */
  match(httpMethod: string, path: string): RouteMatch<Route>;
}

function verbAndPath(rule: HttpRule, name: string): [string, string] {
  const p = rule.pattern;
  switch (p.case) {
    case "get":
    case "put":
    case "post":
    case "delete":
    case "patch":
      return [p.case.toUpperCase(), p.value];
    case "custom":
      if (!p.value.kind) throw new BindingDefinitionError(`${name}: custom rule without a kind`);
      return [p.value.kind.toUpperCase(), p.value.path];
    default:
      throw new BindingDefinitionError(`${name}: http rule without a pattern`);
  }
}

/** The unary method of the same service that the method's access option names as its precheck, if any. */
function precheckOf(method: DescMethod, name: string): DescMethodUnary | undefined {
  const named = hasOption(method, access) ? getOption(method, access).precheck : "";
  if (named === "") return undefined;
  const check = method.parent.methods.find((m): m is DescMethodUnary => m.name === named && m.methodKind === "unary");
  if (!check) throw new BindingDefinitionError(`${name}: precheck ${named} is not a unary method of its service`);
  return check;
}

export function buildRouteTable(backends: ReadonlyArray<{ services: DescService[] }>, registry?: Registry): RouteTable {
  const routes: Route[] = [];
  backends.forEach((backend, index) => {
    for (const service of backend.services) {
      for (const method of service.methods) {
        const top = getOption(method, http);
        if (!top.pattern.case) continue;
        const name = `${service.typeName}.${method.name}`;
        if (method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming") {
          throw new BindingDefinitionError(`${name}: ${method.methodKind} methods cannot have http rules`);
        }
        const precheck = precheckOf(method, name);
        for (const rule of [top, ...top.additionalBindings]) {
          if (rule !== top && rule.additionalBindings.length > 0) {
            throw new BindingDefinitionError(`${name}: additional bindings cannot nest`);
          }
          const [httpMethod, pattern] = verbAndPath(rule, name);
          const template = parseTemplate(pattern, name);
          routes.push({
            httpMethod,
            pattern,
            template,
            service,
            method,
            body: rule.body,
            responseBody: rule.responseBody,
            binding: compileBinding({ method: name, input: method.input, template, body: rule.body }, registry),
            render: compileRenderer(name, method.output, rule.responseBody, registry),
            raw: compileRawRenderer(method.output, rule.responseBody),
            backend: index,
            ...(precheck ? { precheck } : {}),
          });
        }
      }
    }
  });
  const entries: Array<MatcherEntry<Route>> = routes.map((r) => ({
    httpMethod: r.httpMethod,
    template: r.template,
    value: r,
    describe: `${r.service.typeName}.${r.method.name} (${r.httpMethod} ${r.pattern})`,
  }));
  const matcher = createMatcher(entries);
  return { routes, match: (m, p) => matcher.match(m, p) };
}
