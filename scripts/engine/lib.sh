# Shared by scripts/engine-e2e.sh and scripts/engine/sample.sh: a venv with xllamacpp and gguf,
# a random-weight GGUF, and `engine_start SLOTS [CTX_PER_SLOT]` which serves it on a free 127.0.0.1
# port and sets $port and $server (the server's pid; killed on exit).
work=target/engine
venv=target/engine-venv
mkdir -p "$work"
if ! "$venv/bin/python" -c "import xllamacpp, gguf" 2>/dev/null; then
  python3 -m venv "$venv"
  timeout 600 "$venv/bin/pip" install -q xllamacpp==2026.10.11549 gguf==0.19.0
fi
model="$work/model-8x768.gguf"
[ -f "$model" ] || timeout 120 "$venv/bin/python" scripts/engine/make_gguf.py "$model" 8 768 2048

engine_start() {
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$venv/bin/python" scripts/engine/serve.py "$model" "$port" "$1" 1 "${2:-512}" >"$work/serve.log" 2>&1 &
  server=$!
  trap 'kill $server 2>/dev/null || true' EXIT
  timeout 60 bash -c "until grep -q ready '$work/serve.log'; do sleep 0.2; done"
}
