"""A minimal Chrome DevTools Protocol client over the standard library (no websocket package):
launches headless Chromium with a debugging port, connects to its page and calls methods,
keeping the events that arrive meanwhile. For `make serve-check` (scripts/serve-check.py)."""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import threading
import time
import urllib.request


class DevToolsError(Exception):
    pass


class Browser:
    """Headless Chromium on a free debugging port, its first page connected."""

    def __init__(self, profile, window="1500,1000"):
        self.process = subprocess.Popen(
            ["chromium", "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}",
             f"--window-size={window}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 30
        port = None
        while port is None:
            line = self.process.stderr.readline()
            if not line:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise DevToolsError("chromium did not print its DevTools address")
                continue
            found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
        # Keep draining its standard error so it never blocks on a full pipe.
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(target for target in targets if target.get("type") == "page")
        self.page = Connection(page["webSocketDebuggerUrl"])

    def close(self):
        try:
            self.page.close()
        finally:
            self.process.kill()
            self.process.wait()


class Connection:
    """One websocket to a DevTools target: ``call`` sends a method and returns its result."""

    def __init__(self, url):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.socket = socket.create_connection((host, port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = self.socket.recv(4096)
            if not chunk:
                raise DevToolsError("the DevTools websocket closed during its handshake")
            received += chunk
        head, self.buffer = received.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise DevToolsError("the DevTools websocket refused: " + head.decode(errors="replace"))
        self.next_id = 0
        self.events = []

    def close(self):
        self.socket.close()

    def _send(self, text):
        data = text.encode()
        mask = os.urandom(4)
        header = bytearray([0x81])
        if len(data) < 126:
            header.append(0x80 | len(data))
        elif len(data) < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack(">H", len(data))
        else:
            header.append(0x80 | 127)
            header += struct.pack(">Q", len(data))
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
        self.socket.sendall(bytes(header) + mask + masked)

    def _exactly(self, count):
        while len(self.buffer) < count:
            chunk = self.socket.recv(1 << 16)
            if not chunk:
                raise DevToolsError("the DevTools websocket closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def _message(self):
        message = b""
        while True:
            first, second = self._exactly(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._exactly(8))[0]
            mask = self._exactly(4) if second & 0x80 else None
            payload = self._exactly(length)
            if mask:
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            if opcode == 8:
                raise DevToolsError("the DevTools websocket closed")
            if opcode in (9, 10):
                continue
            message += payload
            if first & 0x80:
                return json.loads(message.decode())

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self._send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = self._message()
            if message.get("id") == ident:
                if "error" in message:
                    raise DevToolsError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (awaited when it is a promise)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, seconds=20):
        """Polls `expression` until it is truthy; returns its value."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise DevToolsError(f"timed out waiting for {what} ({expression})")
            time.sleep(0.05)
