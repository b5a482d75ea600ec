{{/*
Names, labels and the shared pieces of every workload. Templates call these with a dict when they need a
component: (dict "ctx" $ "component" "user").
*/}}

{{- define "tt.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release-scoped prefix of every resource name; the release name alone when it already contains the chart name. */}}
{{- define "tt.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "tt.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of a component's objects: <fullname>-<component>. */}}
{{- define "tt.componentName" -}}
{{- printf "%s-%s" (include "tt.fullname" .ctx) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Immutable selector labels; args: ctx, component. */}}
{{- define "tt.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tt.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{/* Standard labels of every object; args: ctx, component (optional), tier (optional). */}}
{{- define "tt.labels" -}}
helm.sh/chart: {{ include "tt.chart" .ctx }}
{{ include "tt.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: turntable
{{- with .tier }}
turntable.fm/tier: {{ . }}
{{- end }}
{{- end -}}

{{/* Labels that NetworkPolicies select pods of one tier of this release by. */}}
{{- define "tt.tierSelector" -}}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
turntable.fm/tier: {{ .tier }}
{{- end -}}

{{/* "repository:tag" from an override dict over a default dict; the tag falls back to appVersion and is never latest.
args: ctx, image (override), defaults. */}}
{{- define "tt.image" -}}
{{- $repo := default .defaults.repository .image.repository -}}
{{- $tag := default (default .ctx.Chart.AppVersion .defaults.tag) .image.tag | toString -}}
{{- if or (eq $tag "latest") (eq $tag "") -}}
{{- fail (printf "image %s: tag must be a fixed version, not %q" $repo $tag) -}}
{{- end -}}
{{- printf "%s:%s" $repo $tag -}}
{{- end -}}

{{- define "tt.pullPolicy" -}}
{{- default .defaults.pullPolicy .image.pullPolicy -}}
{{- end -}}

{{/* serviceDefaults with one entry's overrides on top, as YAML (use fromYaml). args: ctx, values. */}}
{{- define "tt.workload" -}}
{{- $defaults := deepCopy .ctx.Values.serviceDefaults -}}
{{- toYaml (mergeOverwrite $defaults (deepCopy (default (dict) .values))) -}}
{{- end -}}

{{/* USER for "user": the prefix of a service's variables (USER_SERVICE_URL). */}}
{{- define "tt.envPrefix" -}}
{{- . | upper | replace "-" "_" -}}
{{- end -}}

{{/* In-cluster URL of a backend component. args: ctx, component. */}}
{{- define "tt.serviceUrl" -}}
{{- printf "http://%s:%d" (include "tt.componentName" .) (int64 .ctx.Values.port) -}}
{{- end -}}

{{/* Plain settings every backend process reads; one dict, rendered into the shared ConfigMap and inlined in
the migration Jobs (which run before the ConfigMap exists). */}}
{{- define "tt.sharedEnv" -}}
{{- $ctx := . -}}
{{- /* A cluster is production whatever the image says: development conveniences (the payment service's free
development checkout, issue 23) refuse to start unless a loud variable of their own allows them. */}}
NODE_ENV: "production"
LOG_LEVEL: {{ .Values.config.logLevel | quote }}
SHUTDOWN_TIMEOUT_MS: {{ .Values.config.shutdownTimeoutMs | int64 | toString | quote }}
DATABASE_POOL_MAX: {{ .Values.config.databasePoolMax | int64 | toString | quote }}
PORT: {{ .Values.port | int64 | toString | quote }}
{{- if eq (int64 .Values.port) (int64 .Values.metricsPort) }}
{{- fail "metricsPort must differ from port: /metrics is never served on the public port" }}
{{- end }}
METRICS_PORT: {{ .Values.metricsPort | int64 | toString | quote }}
HEADERS_TIMEOUT_MS: {{ .Values.config.headersTimeoutMs | int64 | toString | quote }}
BODY_TIMEOUT_MS: {{ .Values.config.bodyTimeoutMs | int64 | toString | quote }}
IDLE_TIMEOUT_MS: {{ .Values.config.idleTimeoutMs | int64 | toString | quote }}
MAX_CONNECTIONS: {{ .Values.config.maxConnections | int64 | toString | quote }}
MAX_CONNECTIONS_PER_ADDRESS: {{ .Values.config.maxConnectionsPerAddress | int64 | toString | quote }}
{{- with .Values.config.jwtIssuer }}
JWT_ISSUER: {{ . | quote }}
{{- end }}
{{- with .Values.config.jwtAudience }}
JWT_AUDIENCE: {{ . | quote }}
{{- end }}
{{- range $name, $entry := .Values.services }}
{{- if ne (toString (dig "enabled" true (default (dict) $entry))) "false" }}
{{ include "tt.envPrefix" $name }}_SERVICE_URL: {{ include "tt.serviceUrl" (dict "ctx" $ctx "component" $name) | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Enabled services only, as a YAML dict name -> entry (use fromYaml). */}}
{{- define "tt.enabledServices" -}}
{{- $out := dict -}}
{{- range $name, $entry := .Values.services -}}
{{- $e := default (dict) $entry -}}
{{- if ne (toString (dig "enabled" true $e)) "false" -}}
{{- $_ := set $out $name $e -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Every backend Deployment, as a YAML dict (use fromYaml): component -> {values (merged over serviceDefaults),
tier (service, worker or gateway), service (the program, SERVICE), role (the <SERVICE>_ROLE value, "" for none)}.
A service with enabled `workers` runs role "api" behind its Service; each worker <service>-<role> runs the same
program with role <role>, the service's image, env, secretEnv, existingSecret and extraEgress under its own
values, and gets no Service, no Ingress route and no migration Job. */}}
{{- define "tt.backendWorkloads" -}}
{{- $ctx := . -}}
{{- $out := dict -}}
{{- range $name, $entry := fromYaml (include "tt.enabledServices" .) -}}
{{- $svc := fromYaml (include "tt.workload" (dict "ctx" $ctx "values" $entry)) -}}
{{- $workers := dict -}}
{{- range $role, $workerEntry := default (dict) $svc.workers -}}
{{- $we := default (dict) $workerEntry -}}
{{- if ne (toString (dig "enabled" true $we)) "false" -}}
{{- $inherited := dict "image" (deepCopy (default (dict) $svc.image)) "env" (deepCopy (default (dict) $svc.env)) "secretEnv" (deepCopy (default (dict) $svc.secretEnv)) "existingSecret" $svc.existingSecret "extraEgress" (default (list) $svc.extraEgress) -}}
{{- $_ := set $workers $role (mergeOverwrite (deepCopy $ctx.Values.serviceDefaults) $inherited (deepCopy $we)) -}}
{{- end -}}
{{- end -}}
{{- $_ := unset $svc "workers" -}}
{{- $_ := set $out $name (dict "values" $svc "tier" "service" "service" $name "role" (ternary "api" "" (gt (len $workers) 0))) -}}
{{- range $role, $values := $workers -}}
{{- $_ := unset $values "enabled" -}}
{{- $_ := set $out (printf "%s-%s" $name $role) (dict "values" $values "tier" "worker" "service" $name "role" $role) -}}
{{- end -}}
{{- end -}}
{{- $_ := set $out "gateway" (dict "values" (fromYaml (include "tt.workload" (dict "ctx" $ctx "values" $ctx.Values.gateway))) "tier" "gateway" "service" "gateway" "role" "") -}}
{{- toYaml $out -}}
{{- end -}}

{{/* DATABASE_URL and NATS_URL from an existing Secret or from the chart's Secret named .secret. args: ctx, secret. */}}
{{- define "tt.connectionEnv" -}}
{{- $v := .ctx.Values -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ default .secret $v.database.existingSecret }}
      key: {{ ternary $v.database.existingSecretKey "DATABASE_URL" (ne $v.database.existingSecret "") }}
- name: NATS_URL
  valueFrom:
    secretKeyRef:
      name: {{ default .secret $v.nats.existingSecret }}
      key: {{ ternary $v.nats.existingSecretKey "NATS_URL" (ne $v.nats.existingSecret "") }}
{{- end -}}

{{/* The deployment's name on NATS: nats.deploymentName, else the release name; a DNS label, as the services require. */}}
{{- define "tt.deploymentName" -}}
{{- $name := default .Release.Name .Values.nats.deploymentName -}}
{{- if not (regexMatch "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$" $name) -}}
{{- fail (printf "nats.deploymentName (or the release name) %q must be 1 to 63 lower-case letters, digits and '-'" $name) -}}
{{- end -}}
{{- $name -}}
{{- end -}}

{{/* Connection URLs given in values (not via existingSecret), as Secret stringData. */}}
{{- define "tt.connectionSecretData" -}}
{{- if not .Values.database.existingSecret }}
DATABASE_URL: {{ required "database.url or database.existingSecret is required" .Values.database.url | quote }}
{{- end }}
{{- if not .Values.nats.existingSecret }}
NATS_URL: {{ required "nats.url or nats.existingSecret is required" .Values.nats.url | quote }}
{{- end }}
{{- end -}}

{{/* Hardened pod security context; args: uid. */}}
{{- define "tt.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
# Mounted volumes are chowned to fsGroup only while their root does not match, not on every pod start.
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Media settings resolved from values, as YAML (use fromYaml): mode ("s3", "volume", or "" when the media
service is not deployed), service, baseUrl (MEDIA_BASE_URL), path (the base URL when it is a path, which the
gateway serves and the Ingress routes; "" otherwise), dir and claim (volume mode). */}}
{{- define "tt.media" -}}
{{- $m := .Values.media -}}
{{- if not (hasKey .Values.services $m.service) -}}
{{- fail (printf "media.service %q is not an entry of services" $m.service) -}}
{{- end -}}
{{- $out := dict "mode" "" "service" $m.service "baseUrl" "" "path" "" -}}
{{- if hasKey (fromYaml (include "tt.enabledServices" .)) $m.service -}}
{{- if $m.s3.bucket -}}
{{- if not $m.s3.existingSecret -}}
{{- fail "media.s3.existingSecret is required when media.s3.bucket is set: the name of a Secret holding MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY" -}}
{{- end -}}
{{- if not (regexMatch "^https?://[^/]+" $m.baseUrl) -}}
{{- fail (printf "media.baseUrl must be the http(s):// URL images are served from (the bucket's public URL or a CDN) when media.s3.bucket is set; got %q" $m.baseUrl) -}}
{{- end -}}
{{- $_ := set $out "mode" "s3" -}}
{{- $_ := set $out "baseUrl" $m.baseUrl -}}
{{- else -}}
{{- $baseUrl := default "/media" $m.baseUrl -}}
{{- $_ := set $out "mode" "volume" -}}
{{- $_ := set $out "baseUrl" $baseUrl -}}
{{- if hasPrefix "/" $baseUrl -}}
{{- $_ := set $out "path" (trimSuffix "/" $baseUrl) -}}
{{- end -}}
{{- $_ := set $out "dir" "/var/lib/turntable/media" -}}
{{- $_ := set $out "claim" (default (printf "%s-media" (include "tt.fullname" .)) $m.volume.existingClaim) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Plain media variables of one backend workload, as YAML (use fromYaml); empty for workloads that get none.
args: ctx, name. */}}
{{- define "tt.mediaEnv" -}}
{{- $media := fromYaml (include "tt.media" .ctx) -}}
{{- $s3 := .ctx.Values.media.s3 -}}
{{- $out := dict -}}
{{- $stores := or (eq .name $media.service) (has .name (default (list) .ctx.Values.media.alsoServices)) -}}
{{- if and (eq $media.mode "s3") $stores -}}
{{- $_ := set $out "MEDIA_S3_BUCKET" $s3.bucket -}}
{{- with $s3.endpoint }}{{ $_ := set $out "MEDIA_S3_ENDPOINT" . }}{{ end -}}
{{- with $s3.region }}{{ $_ := set $out "MEDIA_S3_REGION" . }}{{ end -}}
{{- $_ := set $out "MEDIA_BASE_URL" $media.baseUrl -}}
{{- else if and (eq $media.mode "volume") (or $stores (eq .name "gateway")) -}}
{{- $_ := set $out "MEDIA_DIR" $media.dir -}}
{{- $_ := set $out "MEDIA_BASE_URL" $media.baseUrl -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* Hardened container security context; args: uid. */}}
{{- define "tt.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Pod-level settings shared by every pod of the release. */}}
{{- define "tt.podCommon" -}}
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Scheduling keys of a merged workload; args: ctx, w, component. */}}
{{- define "tt.scheduling" -}}
{{- with .w.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .w.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
affinity:
{{- if .w.affinity }}
  {{- toYaml .w.affinity | nindent 2 }}
{{- else }}
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "tt.selectorLabels" (dict "ctx" .ctx "component" .component) | nindent 14 }}
{{- end }}
{{- end -}}

{{/* Site origin for the shell's remote configuration. */}}
{{- define "tt.publicUrl" -}}
{{- if .Values.publicUrl -}}
{{- .Values.publicUrl | trimSuffix "/" -}}
{{- else if .Values.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" .Values.ingress.tls.enabled) .Values.ingress.host -}}
{{- end -}}
{{- end -}}

{{/* The shell's remote configuration as JSON. */}}
{{- define "tt.remotesConfig" -}}
{{- if .Values.remotesConfig -}}
{{- toJson .Values.remotesConfig -}}
{{- else -}}
{{- $base := include "tt.publicUrl" . -}}
{{- $out := list -}}
{{- range $name, $app := .Values.frontends.apps -}}
{{- if $app.remote -}}
{{- $out = append $out (dict "name" $name "entry" (printf "%s%s/mf-manifest.json" $base (trimSuffix "/" $app.path))) -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}
{{- end -}}

{{/* The file the gateway serves as /remotes.json: the remote configuration, with the services' base URLs when
webServiceUrls names any ({"remotes": [...], "services": {...}}, read by the web kit). */}}
{{- define "tt.runtimeConfig" -}}
{{- if .Values.webServiceUrls -}}
{{- $services := dict -}}
{{- range $name, $url := .Values.webServiceUrls -}}
{{- $_ := set $services $name (trimSuffix "/" $url) -}}
{{- end -}}
{{- toJson (dict "remotes" (include "tt.remotesConfig" . | fromJsonArray) "services" $services) -}}
{{- else -}}
{{- include "tt.remotesConfig" . -}}
{{- end -}}
{{- end -}}

{{/* nginx server block of one frontend app; args: app, path (no trailing slash, "" for the root), csp (the
shell's Content-Security-Policy, see _security-headers.tpl). */}}
{{- define "tt.nginxConf" -}}
{{ include "tt.nginxHstsMap" . }}

server {
    listen 8080;
    server_tokens off;
    # Redirects keep the scheme and host the browser used, not the pod's port.
    absolute_redirect off;

    location = /healthz {
        access_log off;
        default_type text/plain;
        return 200 "ok\n";
    }
{{- if eq .path "" }}

    # The shell is a single-page app: unknown paths get index.html and the router decides.
    location / {
        root /usr/share/nginx/html/{{ .app }};
        try_files $uri $uri/ /index.html;
        add_header Cache-Control "no-cache" always;
        {{- include "tt.nginxSecurityHeaders" (dict "page" true "csp" .csp) | nindent 8 }}
    }
{{- else }}

    # A remote: the shell loads its manifest and chunks at run time, possibly from another origin.
    location {{ .path }}/ {
        alias /usr/share/nginx/html/{{ .app }}/;
        add_header Access-Control-Allow-Origin "*" always;
        add_header Cache-Control "no-cache" always;
        {{- include "tt.nginxSecurityHeaders" (dict "page" false) | nindent 8 }}
    }
{{- end }}
}
{{- end -}}

{{/* One egress rule: to (peers, optional) and ports (list of {protocol, port}). */}}
{{- define "tt.egressTo" -}}
{{- $rule := dict "ports" .ports -}}
{{- with .to -}}
{{- $_ := set $rule "to" . -}}
{{- end -}}
{{- toYaml (list $rule) -}}
{{- end -}}

{{/* The Secret holding SERVICE_TOKEN_PRIVATE_KEY: serviceIdentity.existingSecret, or the one the chart renders. */}}
{{- define "tt.serviceIdentitySecret" -}}
{{- default (printf "%s-service-identity" (include "tt.fullname" .)) .Values.serviceIdentity.existingSecret -}}
{{- end -}}
