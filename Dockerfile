# Switchboard's HTTP face in a container, serving a config mounted at /config/.mcp.json and keeping
# its data (call history, toolsets, tokens) in the /data volume.
#
#   docker build -t switchboard .
#   docker run --rm -p 3333:3333 -v "$PWD/servers.mcp.json:/config/.mcp.json:ro" -v switchboard-data:/data \
#     -e SB_TOKEN=... switchboard
#
# Off loopback Switchboard requires client tokens (it refuses to start without them): list at least
# one client in the config, e.g. "switchboard": {"clients": [{"name": "me", "tokenEnv": "SB_TOKEN"}]},
# and send "Authorization: Bearer <token>". Servers started with npx or uvx need those tools in the
# image (node's npx is there; add others in a derived image).
FROM node:22-bookworm-slim AS build
WORKDIR /src
# better-sqlite3 and the optional journal addon compile here, so the final image needs no compiler.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY ui ./ui
COPY scripts ./scripts
COPY native ./native
COPY examples ./examples
COPY docs ./docs
RUN npm ci --no-audit --no-fund && npm pack --pack-destination /tmp \
 && mkdir /app && npm install -g --prefix /app /tmp/switchboard-*.tgz --no-audit --no-fund

FROM node:22-bookworm-slim
COPY --from=build /app /app
ENV PATH=/app/bin:$PATH SWITCHBOARD_DATA_DIR=/data
RUN mkdir -p /data /config && chown node:node /data
VOLUME ["/data"]
EXPOSE 3333
USER node
CMD ["switchboard", "serve", "--http", "--host", "0.0.0.0", "--port", "3333", "--config", "/config/.mcp.json", "--data-dir", "/data"]
