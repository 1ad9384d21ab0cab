# Sourced by the bench scripts that probe APIs served by nginx on 127.0.0.1
# (nginx_wide.sh, batch_memory.sh): one temporary directory, one nginx worker.
#   nginx_api_setup          $work (removed on exit, with nginx stopped), $port
#   nginx_api_start LETTER   serves, for every /<LETTER><digits>/v1 base path:
#       openapi.json from $work/www/<LETTER><digits>/v1/ (with CORS),
#       200 '{}' on the base path, on /collectie<digits> under it and on the
#       documented paths of bench/real_oas.py's documents (/k<digits>/..., no
#       trailing slash), a problem-details 404 anywhere else, API-Version on
#       every response. LETTER may be a bracket class ("[nr]") to serve several.
# Needs $PY (Debian's python3).
nginx_api_setup() {
  work=$(mktemp -d)
  chmod 755 "$work"  # nginx's worker reads the documents as another user
  nginx_pid=""
  trap 'nginx_api_cleanup' EXIT
  port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$work/www" "$work/logs"
}
nginx_api_cleanup() {
  if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
nginx_api_start() {
  local l=$1
  cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log crit;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port backlog=4096;
    root $work/www;
    add_header API-Version 1.0.0 always;
    location ~ ^/$l[0-9]+/v1/openapi.json\$ { default_type application/json; add_header Access-Control-Allow-Origin * always; }
    location ~ ^/$l[0-9]+/v1(/collectie[0-9]+)?\$ { default_type application/json; return 200 '{}'; }
    location ~ ^/$l[0-9]+/v1/k[0-9]+(/[^/]+)+\$ { default_type application/json; return 200 '{}'; }
    location / { return 404 '{"status": 404, "title": "Not Found"}'; }
  }
}
NGINX
  nginx -c "$work/nginx.conf" -p "$work" &
  nginx_pid=$!
  for _ in $(seq 50); do
    $PY -c "import socket; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "bench: nginx did not start" >&2
  return 1
}
