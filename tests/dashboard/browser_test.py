#!/usr/bin/env python3
"""The dashboard in headless Chromium against a real cuzk-daemon: every view loads, a job
the test submits appears (overview, jobs, its detail), its timeline renders a row per
partition, and the Evict button without the admin token is refused (401) and evicts
nothing. A screenshot of each view is kept under <out dir> as a test artefact.

    browser_test.py <cuzk-daemon> <cuzk> <out dir>

Chromium is driven over the DevTools protocol (a minimal websocket client below: only the
standard library). Without Chromium (Debian's package `chromium`; installed here with
apt-get when running as root and CUZK_TEST_NO_INSTALL is unset) the test is skipped:
exit 77, with the reason."""
import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

SKIP = 77
TOKEN = "browser-test-token-0123456789"


def log(msg):
    print(msg, flush=True)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    if os.geteuid() == 0 and shutil.which("apt-get") and not os.environ.get("CUZK_TEST_NO_INSTALL"):
        log("chromium not found: apt-get install -y chromium")
        r = subprocess.run(["apt-get", "install", "-y", "chromium"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=900)
        if r.returncode == 0 and shutil.which("chromium"):
            return shutil.which("chromium")
        log("apt-get install chromium failed: " + r.stderr.strip()[-500:])
    return None


class WebSocket:
    """Just enough of RFC 6455 for the DevTools protocol: text frames, client-side masking."""

    def __init__(self, url):
        assert url.startswith("ws://"), url
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError("websocket handshake refused: " + head.decode(errors="replace"))

    def _recv_exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise RuntimeError("websocket closed")
            buf += chunk
        return buf

    def send(self, text):
        data = text.encode()
        header = bytes([0x81])
        n = len(data)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._recv_exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._recv_exact(8))[0]
            payload = self._recv_exact(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise RuntimeError("websocket closed by the browser")
            if opcode in (0x9, 0xA):  # ping / pong
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Page:
    def __init__(self, ws_url):
        self.ws = WebSocket(ws_url)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expr, what, timeout=30):
        t0 = time.time()
        while time.time() - t0 < timeout:
            v = self.eval(expr)
            if v:
                return v
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what} ({expr})")

    def open(self, url, view):
        self.call("Page.navigate", url=url)
        self.wait_for(f"document.body && document.body.dataset.rendered === {json.dumps(view)}", f"view {view}")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png")["data"]
        Path(path).write_bytes(base64.b64decode(data))


def http_json(url, method="GET"):
    req = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    daemon_bin, cli_bin, out_dir = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    chromium = find_chromium()
    if not chromium:
        log("SKIP: no Chromium (apt-get install -y chromium as root, or put chromium on PATH): "
            "the dashboard was not tested in a browser")
        return SKIP
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="cuzk-browser-"))
    procs = []
    try:
        cfg = tmp / "cuzk.toml"
        cfg.write_text(f'[daemon]\nlisten = ["127.0.0.1:0"]\nhttp_listen = "127.0.0.1:0"\n'
                       f'admin_token = "{TOKEN}"\n[engine]\nbackend = "cpu"\nparam_cache = "{tmp}/params"\n'
                       f'witness_workers = 1\ncpu_prove_workers = 1\n[cost]\ndollars_per_hour = 2.4\n')
        ready = tmp / "ready.json"
        daemon_log = open(tmp / "daemon.log", "w")
        procs.append(subprocess.Popen([daemon_bin, "--config", str(cfg), "--ready-file", str(ready)],
                                      stdout=daemon_log, stderr=subprocess.STDOUT))
        for _ in range(600):
            if ready.exists():
                break
            if procs[0].poll() is not None:
                raise RuntimeError("cuzk-daemon exited:\n" + (tmp / "daemon.log").read_text())
            time.sleep(0.05)
        addr = json.loads(ready.read_text())
        grpc, http = addr["grpc"][0], "http://" + addr["http"]

        # A job of 4 partitions (random-dense 512: ~100 ms each on the CPU).
        sub = subprocess.run([cli_bin, "client", "--address", grpc, "submit", "--circuit", "random-dense", "--size",
                              "512", "--partitions", "4"], capture_output=True, text=True, timeout=120)
        assert sub.returncode == 0, sub.stderr
        job = sub.stdout.strip().split()[-1]
        assert job.startswith("job-"), sub.stdout
        done = subprocess.run([cli_bin, "client", "--address", grpc, "await", job], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        log(f"submitted and proved {job}")

        profile = tmp / "profile"
        args = [chromium, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1400,1000", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=open(tmp / "chromium.log", "w"),
                                      start_new_session=True))
        port_file = profile / "DevToolsActivePort"
        for _ in range(600):
            if port_file.exists() and port_file.read_text().strip():
                break
            if procs[1].poll() is not None:
                raise RuntimeError("chromium exited:\n" + (tmp / "chromium.log").read_text()[-2000:])
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        target = next(t for t in http_json(f"http://127.0.0.1:{port}/json/list") if t["type"] == "page")
        page = Page(target["webSocketDebuggerUrl"])
        page.call("Page.enable")
        page.call("Runtime.enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1400, height=1000, deviceScaleFactor=1, mobile=False)

        checks = 0

        def check(cond, what):
            nonlocal checks
            checks += 1
            if not cond:
                raise AssertionError(what)

        # Overview: the job is counted under its kind.
        page.open(http + "/#overview", "overview")
        kinds = page.eval("document.querySelector('#ov-kinds tbody').innerText")
        check("builtin" in kinds, f"overview: no builtin row in the kinds table: {kinds!r}")
        check("$" in kinds, f"overview: no cost per proof: {kinds!r}")
        page.screenshot(out_dir / "overview.png")

        # Jobs: listed, and found by the kind filter.
        page.open(http + "/#jobs", "jobs")
        check(page.eval(f"document.querySelector('#jobs-table').innerText.includes({json.dumps(job)})"),
              "jobs: the submitted job is not listed")
        page.screenshot(out_dir / "jobs.png")

        # The job's detail: its phases and its trace.
        page.open(http + "/#job/" + job, "job")
        phases = page.eval("document.querySelector('#job-phases').innerText")
        for p in ("witness", "prove", "verify"):
            check(p in phases, f"job detail: no phase {p}: {phases!r}")
        page.screenshot(out_dir / "job.png")

        # Timeline: a row per partition of the job, each with spans drawn.
        page.open(http + "/#timeline", "timeline")
        rows = page.wait_for(f"document.querySelectorAll('#tl-chart .row[data-job={json.dumps(job)}]').length >= 4 && "
                             f"document.querySelectorAll('#tl-chart .row[data-job={json.dumps(job)}]').length",
                             "4 timeline rows of the job")
        spans = page.eval(f"document.querySelectorAll('#tl-chart .row[data-job={json.dumps(job)}] .span').length")
        widths = page.eval(f"Array.from(document.querySelectorAll('#tl-chart .row[data-job={json.dumps(job)}] "
                           f".span[data-phase=witness]')).map(e => e.getBoundingClientRect().width)")
        check(rows == 4 and spans >= 4 * 4, f"timeline: {rows} rows and {spans} spans for the job")
        check(len(widths) == 4, f"timeline: witness spans {widths}")
        page.screenshot(out_dir / "timeline.png")

        # Parameters: the Evict button without the token is refused and nothing is evicted.
        page.open(http + "/#params", "params")
        circuit = "random-dense-512-4-1"
        check(page.eval(f"document.querySelector('#params-table').innerText.includes({json.dumps(circuit)})"),
              "params: the job's circuit is not listed")
        page.eval(f"sessionStorage.clear(); document.querySelector('#token').value = ''; "
                  f"document.querySelector('button[data-action=evict][data-circuit={json.dumps(circuit)}]').click(); true")
        status = page.wait_for("document.querySelector('#msg').dataset.status", "the evict answer")
        msg = page.eval("document.querySelector('#msg').innerText")
        check(status == "401", f"params: evict without the token answered {status}: {msg!r}")
        check(any(p["circuit_id"] == circuit for p in http_json(http + "/api/params")["params"]),
              "params: evict without the token evicted the circuit")
        page.screenshot(out_dir / "params-refused.png")
        # With the token it goes through.
        page.eval(f"document.querySelector('#token').value = {json.dumps(TOKEN)}; "
                  f"document.querySelector('button[data-action=evict][data-circuit={json.dumps(circuit)}]').click(); true")
        page.wait_for("document.querySelector('#msg').dataset.status === '200'", "the evict with the token")
        check(not http_json(http + "/api/params")["params"], "params: evict with the token left the circuit loaded")

        # Config: every key with its source; the token itself never shown.
        page.open(http + "/#config", "config")
        cfg_text = page.eval("document.querySelector('#config-table').innerText")
        check("cost.dollars_per_hour" in cfg_text and "cuzk.toml:" in cfg_text, f"config: {cfg_text[:500]!r}")
        check(TOKEN not in cfg_text, "config: the admin token is shown")
        page.screenshot(out_dir / "config.png")
        log(f"dashboard ok: {checks} checks; screenshots in {out_dir}")
        return 0
    finally:
        for p in reversed(procs):
            try:
                if p is procs[0]:
                    p.send_signal(signal.SIGTERM)
                else:
                    os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except Exception:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
