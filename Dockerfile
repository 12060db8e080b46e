# Jarvis in a container: `docker compose up -d --build jarvis-backend` (see compose.yaml and
# docs/operations.md). The data dir (~/.jarvis) is the `jarvis_data` volume (seed 004).
ARG PYTHON_IMAGE=python:3.12-slim-bookworm
FROM ${PYTHON_IMAGE}

ARG UV_VERSION=0.13.9
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/jarvis

# git for the tools and MCP servers that use it; bubblewrap for the OS sandbox under the gate.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git bubblewrap \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m pip install --no-cache-dir --break-system-packages "uv==${UV_VERSION}"

WORKDIR /src
# Dependencies first (from the lock file, exactly), so a source change does not reinstall them.
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --extra anthropic --no-install-project
COPY src ./src
RUN uv sync --frozen --no-dev --extra anthropic --no-editable

# A user of its own: the server never runs as root.
RUN useradd --create-home --uid 1000 jarvis \
    && mkdir -p /home/jarvis/.jarvis /workspace \
    && chown jarvis:jarvis /home/jarvis/.jarvis /workspace
USER jarvis
ENV PATH=/opt/jarvis/bin:$PATH \
    JARVIS_HOME=/home/jarvis/.jarvis \
    JARVIS_WORKSPACE=/workspace \
    JARVIS_WEB__HOST=0.0.0.0 \
    JARVIS_WEB__PORT=8000
WORKDIR /workspace
EXPOSE 8000
VOLUME ["/home/jarvis/.jarvis"]

COPY docker/healthcheck.py /src/docker/healthcheck.py
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "/src/docker/healthcheck.py"]
# Prints `http://127.0.0.1:8000/?token=…` once it listens: `docker compose logs jarvis-backend`.
CMD ["jarvis", "serve"]
