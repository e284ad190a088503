# Shared by the bench scripts: a temp dir, a self-contained nginx on 127.0.0.1, cleanup by pid.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
FERRY=${FERRY:-$ROOT/.build/release/ferry}
RUNS=${RUNS:-5}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ferry-bench.XXXXXX")
chmod 755 "$WORK"
NGINX_PID=""

# KEEP_WORK=1 leaves the temp dir in place (its path is printed): for a look at the files, and
# for running a bench again at once, since deleting many files slows the next file creations
# on some file systems (see bench/queue).
cleanup() {
  if [ -n "$NGINX_PID" ] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill "$NGINX_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ "${KEEP_WORK:-0}" = 1 ]; then
    echo "kept $WORK" >&2
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_nginx ROOTDIR [EXTRA_HTTP_CONFIG]: serves ROOTDIR on a free port; sets PORT and NGINX_PID.
start_nginx() {
  local root=$1 extra=${2:-}
  PORT=$(free_port)
  mkdir -p "$WORK/nginx/logs"
  cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  $extra
  server { listen 127.0.0.1:$PORT; root $root; }
}
CONF
  /usr/sbin/nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
  NGINX_PID=$!
  for _ in $(seq 1 100); do
    if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then return 0; fi
    sleep 0.1
  done
  echo "nginx did not start" >&2
  exit 1
}

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "missing $tool: run make bench (it installs curl, wget, aria2, time)" >&2; exit 1; }
  done
  [ -x /usr/bin/time ] || { echo "missing GNU time (/usr/bin/time), by which measure.py reads peak RSS: run make bench" >&2; exit 1; }
  [ -x "$FERRY" ] || { echo "missing $FERRY: run make release" >&2; exit 1; }
}
