# mailclean in a container: the release tarball (the bundle, nothing else to install) on Node 24's slim image.
#   docker build -t mailclean .
#   docker run --rm -v "$PWD:/work" -v mailclean-data:/data mailclean clean contacts.csv -o cleaned.csv
# The first stage builds the tarball from this checkout exactly as `npm run release` does.
FROM node:24-bookworm-slim AS release
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm run release

FROM node:24-bookworm-slim
COPY --from=release /src/release/mailclean-*.tgz /tmp/
RUN npm install -g --no-audit --no-fund /tmp/mailclean-*.tgz && rm /tmp/mailclean-*.tgz && npm cache clean --force \
  && mkdir -p /data /work && chown node:node /data /work
USER node
# Profiles and data (journals, the verdict cache) in one volume; lists in the working directory.
ENV MAILCLEAN_CONFIG_DIR=/data/config MAILCLEAN_DATA_DIR=/data/state MAILCLEAN_NO_INPUT=1
VOLUME /data
WORKDIR /work
ENTRYPOINT ["mailclean"]
CMD ["--help"]
