// One OpenAPI operation per route: who may call it (from `tt.options.v1.access`), its parameters, its
// request body (JSON, and multipart/form-data when it holds uploaded files) and its responses.
import { getOption, type DescMethod } from "@bufbuild/protobuf";
import { access, TokenType } from "@tt/proto/tt/options/v1/access_pb";
import { reasonPhrase } from "./errors.ts";
import { formSchema, pathParameters, queryParameters } from "./openapi-parameters.ts";
import type { JsonSchema, SchemaBuilder } from "./openapi-schema.ts";
import type { Route } from "./routes.ts";

const TOKEN_TYPE_NAMES: Record<number, string> = {
  [TokenType.USER]: "user",
  [TokenType.GUEST]: "guest",
  [TokenType.BOT]: "bot",
  [TokenType.SERVICE]: "service",
};

/** A method's access policy as the document shows it: in words, as security requirements, and as data. */
export function accessOf(method: DescMethod): {
  description: string;
  security: Array<Record<string, string[]>>;
  policy: { anonymous: boolean; tokenTypes: string[]; roles: string[] };
} {
  const policy = getOption(method, access);
  const tokenTypes = policy.tokenTypes.map((t) => TOKEN_TYPE_NAMES[t] ?? String(t));
  const who = [
    policy.anonymous ? "anyone (no token needed)" : undefined,
    tokenTypes.length ? `tokens: ${tokenTypes.join(", ")}` : undefined,
    policy.roles.length ? `roles: ${policy.roles.join(", ")}` : undefined,
  ].filter(Boolean);
  const security: Array<Record<string, string[]>> = [];
  if (tokenTypes.length) security.push({ bearer: [] });
  if (policy.anonymous) security.push({});
  return {
    description: who.length ? who.join("; ") : "nobody",
    security,
    policy: { anonymous: policy.anonymous, tokenTypes, roles: [...policy.roles] },
  };
}

/**
 * The schema of a `body: "*"` request: the input message, except that a required field the path binds is not
 * required in the body too (an inline copy of the message's schema then, without it in `required`).
 */
function withoutPathFields(builder: SchemaBuilder, route: Route): JsonSchema {
  const input = route.method.input;
  const whole = builder.messageSchema(input);
  const named = builder.schemas[input.typeName] as { required?: string[] } | undefined;
  if (!named?.required) return whole;
  const inPath = new Set(
    route.template.variables
      .filter((v) => v.fieldPath.length === 1)
      .map((v) => input.fields.find((f) => f.name === v.fieldPath[0])?.jsonName),
  );
  const required = named.required.filter((name) => !inPath.has(name));
  if (required.length === named.required.length) return whole;
  const { required: _, ...rest } = named;
  return required.length ? { ...rest, required } : rest;
}

/** The request body of a route with a `body`, or undefined. */
export function requestBodyOf(builder: SchemaBuilder, route: Route): JsonSchema | undefined {
  if (!route.body) return undefined;
  const { method } = route;
  const bodyField = route.body === "*" ? undefined : method.input.fields.find((f) => f.name === route.body)!;
  const schema = bodyField ? builder.fieldSchema(bodyField) : withoutPathFields(builder, route);
  const content: Record<string, JsonSchema> = { "application/json": { schema } };
  if (route.binding.acceptsForm) {
    content["multipart/form-data"] = { schema: formSchema(builder, bodyField ? bodyField.message! : method.input) };
  }
  return { required: true, content };
}

/** The 200 response of a route: its output (or its `response_body` field), one JSON document or a stream. */
export function okResponseOf(builder: SchemaBuilder, route: Route): JsonSchema {
  const { method } = route;
  // The output message is listed in components even when `response_body` picks one of its fields.
  const whole = builder.messageSchema(method.output);
  const schema = route.responseBody
    ? builder.fieldSchema(method.output.fields.find((x) => x.name === route.responseBody)!)
    : whole;
  if (method.methodKind === "server_streaming") {
    return {
      description: "a stream of messages, one JSON document per line",
      content: { "application/x-ndjson": { schema }, "text/event-stream": { schema: { type: "string" } } },
    };
  }
  return { description: "OK", content: { "application/json": { schema } } };
}

/** The operation of one route, under `operationId`; its path (with `{name}` parameters) comes with it. */
export function operationOf(
  builder: SchemaBuilder,
  route: Route,
  operationId: string,
): { path: string; verb: string; operation: JsonSchema } {
  const { method } = route;
  const { path, parameters } = pathParameters(builder, route.template, method.input, method.name);
  const who = accessOf(method);
  const errorResponse = (description: string) => ({
    description,
    content: { "application/json": { schema: builder.ref("Error") } },
  });
  const ok = okResponseOf(builder, route);
  const requestBody = requestBodyOf(builder, route);
  const query = queryParameters(builder, route);
  return {
    path,
    verb: route.httpMethod.toLowerCase(),
    operation: {
      operationId,
      tags: [method.parent.typeName],
      summary: method.name,
      description: `Access: ${who.description}. RPC ${method.parent.typeName}/${method.name}.`,
      "x-tt-access": who.policy,
      security: who.security,
      parameters: [...parameters, ...query],
      ...(requestBody ? { requestBody } : {}),
      responses: {
        "200": ok,
        "400": errorResponse(reasonPhrase(400)),
        default: errorResponse("error"),
      },
    },
  };
}
