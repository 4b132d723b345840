# syntax=docker/dockerfile:1
# Cutroom: one image for every role (serve --role all | api | worker) and the CLI. docs/deploy.md.
# Debian bookworm slim with Node 20; the Debian packages are those scripts/setup.sh installs for the
# service itself (ffmpeg, pocketsphinx), without the ones only the tests use.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: compile TypeScript, then keep only the production dependencies --------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK (sdk/, a file: dependency the user CLI runs on) is installed with the rest.
COPY sdk/package.json ./sdk/package.json
# onnxruntime-node (Silero VAD) ships its CPU runtime; its optional CUDA download is skipped.
RUN ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY sdk ./sdk
COPY scripts/build-sdk.ts scripts/sdk-resources.ts ./scripts/
# The Studio's sources (built by Vite into dist/web, which the runtime stage copies with dist).
COPY web ./web
# npm run build: the SDK (generated from the app's OpenAPI document), then the service, then the Studio.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates \
      ffmpeg \
      pocketsphinx \
      pocketsphinx-en-us \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    CUTROOM_DATA_DIR=/data

WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/sdk ./sdk
COPY package.json ./
COPY bin ./bin
COPY drizzle ./drizzle
# Model files of the embedded generation models (ESRGAN slim, MediaPipe selfie segmentation) with their licences.
COPY assets ./assets

# The image's non-root user (uid 1000) owns the data directory and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080

# Liveness of the process (every role answers /healthz on $PORT; readiness is /readyz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

ENTRYPOINT ["node", "bin/cutroom.js"]
CMD ["serve"]
