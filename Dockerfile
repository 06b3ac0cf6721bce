# The gateway as a container image (docker-compose.yml builds it; docs/elasticsearch.md).
# Build stage: all dependencies, the TypeScript build, then the dev dependencies pruned away.
FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 (the embedded store) downloads a prebuilt binary; these build it from source when none fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci: exactly the lockfile's versions (it lists every platform's optional binaries), and the
# install scripts package.json's allowScripts allows.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json schema.graphql ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: node, the production dependencies, the build, schema.graphql (read at start) and
# console/ (the console's pages, served when CONSOLE=on; README "Console").
FROM node:20-slim
ENV NODE_ENV=production \
    PORT=7512 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/schema.graphql ./schema.graphql
COPY console ./console
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 7512
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:7512/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/src/main.js"]
