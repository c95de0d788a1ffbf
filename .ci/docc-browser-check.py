#!/usr/bin/env python3
"""Opens pages of the documentation site in headless Chromium and checks that each one renders.

Usage: docc-browser-check.py CHROMIUM BASE-URL SCREENSHOT-DIR PATH=TITLE...

For each PATH (relative to BASE-URL), it waits until DocC's JavaScript has rendered a page heading,
then checks that the heading and the window title both contain TITLE and that the page logged no
console error, threw no uncaught exception and failed no request. It saves a screenshot of every
page to SCREENSHOT-DIR. It talks to Chromium over the DevTools protocol with the standard library
only (a minimal WebSocket client), so CI needs nothing but the chromium package.
"""
import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

RENDER_TIMEOUT = 30.0


class DevTools:
    """One WebSocket connection to a page target; sends commands and collects events."""

    def __init__(self, url):
        host, _, path = url[len("ws://"):].partition("/")
        hostname, _, port = host.partition(":")
        self.sock = socket.create_connection((hostname, int(port)), timeout=RENDER_TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            "GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (path, host, key)
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            response += chunk
        if b" 101 " not in response.split(b"\r\n", 1)[0]:
            raise RuntimeError("DevTools refused the WebSocket: %r" % response[:200])
        self.buffer = response.split(b"\r\n\r\n", 1)[1]
        self.next_id = 0
        self.events = []

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            message += payload
            if first & 0x80:  # the last fragment
                return json.loads(message.decode("utf-8"))

    def send(self, method, **params):
        self.next_id += 1
        data = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            message = self._receive()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError("%s failed: %s" % (method, message["error"]))
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


def problems_in(events):
    """Console errors, uncaught exceptions and failed requests, as readable lines."""
    found = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
            found.append("console.error: " + text)
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            found.append("uncaught exception: %s" % details.get("exception", {}).get("description", details.get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            found.append("%s error: %s %s" % (entry.get("source"), entry.get("text"), entry.get("url", "")))
    return found


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    chromium, base_url, screenshot_dir = sys.argv[1:4]
    pages = [argument.split("=", 1) for argument in sys.argv[4:]]
    os.makedirs(screenshot_dir, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="docc-browser-check-")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=1280,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = 0
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + RENDER_TIMEOUT
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or browser.poll() is not None:
                sys.exit("docc-browser-check: Chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = next(target for target in targets if target["type"] == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log"):
            tools.send(domain + ".enable")
        for path, title in pages:
            url = base_url.rstrip("/") + "/" + path.lstrip("/")
            tools.events = []
            tools.send("Page.navigate", url=url)
            heading, window_title = None, None
            deadline = time.time() + RENDER_TIMEOUT
            while time.time() < deadline:
                heading = tools.evaluate("document.querySelector('main h1')?.textContent?.trim() ?? null")
                window_title = tools.evaluate("document.title")
                if heading and tools.evaluate("document.readyState") == "complete":
                    break
                time.sleep(0.2)
            time.sleep(0.5)  # late requests (images, the navigator index) report their errors too
            tools.evaluate("0")
            shot = os.path.join(screenshot_dir, (path.strip("/").replace("/", "-") or "index") + ".png")
            with open(shot, "wb") as handle:
                handle.write(base64.b64decode(tools.send("Page.captureScreenshot", format="png")["data"]))
            problems = problems_in(tools.events)
            if not heading or title not in heading:
                problems.append("no rendered heading containing %r (heading: %r)" % (title, heading))
            if not window_title or title not in window_title:
                problems.append("window title %r does not contain %r" % (window_title, title))
            if problems:
                failures += 1
                print("FAIL %s" % url)
                for problem in problems:
                    print("  " + problem)
            else:
                print("ok   %s: %r, title %r, no console error (screenshot %s)" % (url, heading, window_title, shot))
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        sys.exit("docc-browser-check: %d of %d pages failed" % (failures, len(pages)))


if __name__ == "__main__":
    main()
