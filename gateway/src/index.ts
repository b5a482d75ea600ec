// The gateway's public surface: the assembled gateway plus each stage, so callers can wrap the defaults.
export {
  createGateway,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_MULTIPART_BODY_LIMIT_BYTES,
  DEFAULT_REFUSED_BODY_DRAIN_BYTES,
  OPENAPI_PATH,
  registryOf,
} from "./gateway.ts";
export type { Gateway, GatewayBackend, GatewayOptions } from "./gateway.ts";
export { serveHostThroughGateway } from "./serve-host.ts";
export type { ServedHost } from "./serve-host.ts";
export { createBodyBudget, DEFAULT_MAX_BODY_BYTES_IN_FLIGHT } from "./body-budget.ts";
export type { BodyBudget, BodyLease } from "./body-budget.ts";
export { parseTemplate, formatTemplate, TemplateParseError } from "./template/parse.ts";
export type { PathTemplate, TemplateSegment, TemplateVariable } from "./template/parse.ts";
export { createMatcher, MatchError, RouteConflictError } from "./match.ts";
export type { Matcher, MatcherEntry, RouteMatch } from "./match.ts";
export {
  compileBinding,
  BindError,
  BindingDefinitionError,
  defaultJsonReadOptions,
  hasUploadedFileField,
  isQueryFlattened,
  queryFieldsOf,
  UPLOADED_FILE_TYPE,
} from "./bind.ts";
export type { Binding, BindingRule, FormBody, FormFile } from "./bind.ts";
export { compilePathBinding } from "./bind-path.ts";
export type { PathBinding, PathVariableBinding } from "./bind-path.ts";
export { assignQuery, assignValue, checkQueryNames, createNameResolver } from "./bind-query.ts";
export type { NameResolver, NameResolverOptions, Target as BindTarget } from "./bind-query.ts";
export { compileBodyBinding } from "./bind-body.ts";
export type { BodyBinding } from "./bind-body.ts";
export { compileFormBinding } from "./bind-multipart.ts";
export type { FormBinding } from "./bind-multipart.ts";
export { readMultipart, MULTIPART_TYPE } from "./multipart.ts";
export type { MultipartOptions } from "./multipart.ts";
export { invokeUnary, invokeServerStream, InvokeError, DEFAULT_TIMEOUT_MS } from "./invoke.ts";
export type { UnaryResult, StreamResult } from "./invoke.ts";
export { compileRenderer, defaultJsonWriteOptions, ResponseBodyError } from "./respond.ts";
export type { Renderer } from "./respond.ts";
export { toRestError, restErrorBody, reasonPhrase, INTERNAL_MESSAGE } from "./errors.ts";
export type { RestError, RestErrorBody } from "./errors.ts";
export {
  createHeaderPolicy,
  forwardRequestHeaders,
  forwardResponseHeaders,
  requestIdOf,
  DEFAULT_REQUEST_HEADERS,
  DEFAULT_RESPONSE_HEADERS,
} from "./headers.ts";
export type { HeaderPolicy } from "./headers.ts";
export { createConnectPassthrough, PassthroughError, PROTOCOL_HEADERS } from "./connect-passthrough.ts";
export type { ConnectPassthrough, ConnectTarget } from "./connect-passthrough.ts";
export { buildOpenApi, OpenApiError, DEFAULT_OPENAPI_INFO } from "./openapi.ts";
export { createCors, DEFAULT_CORS_ALLOW_HEADERS, DEFAULT_CORS_EXPOSE_HEADERS, DEFAULT_CORS_METHODS } from "./cors.ts";
export type { Cors, CorsOptions } from "./cors.ts";
export { buildRouteTable } from "./routes.ts";
export type { Route, RouteTable } from "./routes.ts";
