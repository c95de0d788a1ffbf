#!/usr/bin/env python3
"""Opens pages of the documentation site in headless Chromium and checks that each one renders.

Usage: docc-browser-check.py CHROMIUM BASE-URL SCREENSHOT-DIR [--links PATH=LINK,LINK...] PATH=TITLE...

For each PATH (relative to BASE-URL), it waits until DocC's JavaScript has rendered a page heading,
then checks that the heading and the window title both contain TITLE and that the page logged no
console error, threw no uncaught exception and failed no request. It follows every link of the
page's content (not the sidebar's) within the site: the page it names must exist (DocC's data file
for it answers), and so must the heading a `#fragment` names. On articles and landing pages, every
line of every code listing must fit the content column, measured as rendered (a wider one is cut
or scrolls: the guides keep their listings to 90 columns); a symbol page's listings come from doc
comments and may scroll. No heading may show a backtick. With `--links PATH=LINK,...`, the page
PATH must link to each LINK (the landing page to Getting started and every guide). It saves a
screenshot of every page, scrollbars visible, to SCREENSHOT-DIR. It talks to Chromium over the DevTools protocol with the standard library
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
import urllib.error
import urllib.parse
import urllib.request

RENDER_TIMEOUT = 30.0
SHOT_HEIGHT = 2400
MAX_TILES = 12
# A desktop window, where DocC lays a page out at its full width (1,500 pixels and more): its content
# column then shows 94 columns of code, room for the guides' 90. (With the navigator open, a
# 1,440-pixel window shows 87 and a 1,280-pixel one 74; a longer line scrolls there.)
WINDOW_WIDTH, WINDOW_HEIGHT = int(os.environ.get("DOCC_WINDOW_WIDTH", "1600")), 900


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


# What the page's content links to and how its code listings are laid out, read in the page.
LINKS_AND_LISTINGS = """(() => {
  const main = document.querySelector('main');
  const content = main.querySelector('.doc-content') ?? main;
  const here = location.origin + location.pathname;
  const links = Array.from(content.querySelectorAll('a[href]')).map(a => a.href).map(href => {
    const url = new URL(href);
    // A heading of this very page: is it on the page?
    if (url.hash && url.origin + url.pathname === here) {
      return {href, onThisPage: document.getElementById(decodeURIComponent(url.hash.slice(1))) !== null};
    }
    return {href, onThisPage: null};
  });
  const listings = Array.from(main.querySelectorAll('.code-listing')).map(listing => {
    const box = listing.querySelector('.container-general') ?? listing;
    const pre = listing.querySelector('pre') ?? box;
    const code = pre.querySelector('code') ?? pre;
    const lines = (code.textContent || '').split('\\n');
    const longest = lines.reduce((a, b) => (b.length > a.length ? b : a), '');
    // How many characters of the listing's font fit in its box: the column the guides write to.
    const font = getComputedStyle(code).font;
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = font;
    const characterWidth = canvas.measureText('0123456789'.repeat(9)).width / 90;
    const boxStyle = getComputedStyle(box);
    const preStyle = getComputedStyle(pre);
    const inner = box.clientWidth - parseFloat(boxStyle.paddingLeft) - parseFloat(boxStyle.paddingRight)
      - parseFloat(preStyle.paddingLeft) - parseFloat(preStyle.paddingRight);
    return {
      overflows: pre.scrollWidth > box.clientWidth + 1,
      longest: longest.length,
      columns: Math.floor(inner / characterWidth),
      firstLine: longest.trim().slice(0, 60),
    };
  });
  const headings = Array.from(main.querySelectorAll('h1, h2, h3, h4, h5, h6'))
    .map(heading => heading.textContent.trim()).filter(text => text.includes('`'));
  return {links, listings, headings};
})()"""


# The sections DocC renders on a page besides the headings of its text, by their ids.
DOCC_SECTIONS = {"overview", "discussion", "declaration", "parameters", "return-value", "topics", "see-also",
                 "relationships", "conforms-to", "inherits-from", "conforming-types", "mentioned-in", "default-implementations"}


class Site:
    """Answers whether a page of the site, or a heading of it, exists; remembers each answer."""

    def __init__(self, base_url):
        self.base = urllib.parse.urlsplit(base_url)
        self.pages = {}

    def is_internal(self, url):
        parts = urllib.parse.urlsplit(url)
        return (parts.scheme, parts.netloc) == (self.base.scheme, self.base.netloc)

    def page_data(self, path):
        """DocC's JSON for a documentation or tutorials path, or None when the site has none."""
        path = path.rstrip("/")
        if path not in self.pages:
            data_url = "%s://%s/data%s.json" % (self.base.scheme, self.base.netloc, path)
            try:
                with urllib.request.urlopen(data_url) as response:
                    self.pages[path] = response.read().decode("utf-8")
            except urllib.error.HTTPError:
                self.pages[path] = None
        return self.pages[path]

    def problem_with(self, url):
        """Why the internal link `url` is broken, or None."""
        parts = urllib.parse.urlsplit(url)
        if not parts.path.startswith(("/documentation/", "/tutorials/")):
            try:
                urllib.request.urlopen(url).close()
                return None
            except urllib.error.HTTPError as error:
                return "HTTP %d" % error.code
        data = self.page_data(parts.path)
        if data is None:
            return "no such page"
        if (parts.fragment and parts.fragment not in DOCC_SECTIONS
                and ('"anchor":"%s"' % parts.fragment) not in data.replace('": "', '":"')):
            return "the page has no heading #%s" % parts.fragment
        return None


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    chromium, base_url, screenshot_dir = sys.argv[1:4]
    arguments = sys.argv[4:]
    required_links = {}  # page path -> the site paths it must link to
    while arguments and arguments[0] == "--links":
        path, _, links = arguments[1].partition("=")
        required_links[path] = [link for link in links.split(",") if link]
        arguments = arguments[2:]
    pages = [argument.split("=", 1) for argument in arguments]
    os.makedirs(screenshot_dir, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="docc-browser-check-")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=%d,%d" % (WINDOW_WIDTH, WINDOW_HEIGHT), "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failures = 0
    site = Site(base_url)
    links_checked, external_links, listings_checked = 0, set(), 0
    widest, narrowest_column, symbol_listings_scrolling = 0, None, 0
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
            # The whole page, in tiles as tall as SHOT_HEIGHT (name.png, name-2.png, ...), so every
            # listing shows at a readable size: the window is made one tile tall and scrolled, since a
            # capture beyond the window draws a scrolling listing's hidden part as if it spilled out.
            base = path.strip("/").replace("/", "-") or "index"
            height = tools.send("Page.getLayoutMetrics")["cssContentSize"]["height"]
            tools.send("Emulation.setDeviceMetricsOverride", width=WINDOW_WIDTH, height=SHOT_HEIGHT,
                       deviceScaleFactor=1, mobile=False)
            shot = os.path.join(screenshot_dir, base + ".png")
            for tile in range(min(MAX_TILES, max(1, -(-int(height) // SHOT_HEIGHT)))):
                tools.evaluate("window.scrollTo(0, %d)" % (tile * SHOT_HEIGHT))
                time.sleep(0.2)
                name = base + (".png" if tile == 0 else "-%d.png" % (tile + 1))
                with open(os.path.join(screenshot_dir, name), "wb") as handle:
                    handle.write(base64.b64decode(tools.send("Page.captureScreenshot", format="png")["data"]))
            tools.send("Emulation.clearDeviceMetricsOverride")
            problems = problems_in(tools.events)
            if not heading or title not in heading:
                problems.append("no rendered heading containing %r (heading: %r)" % (title, heading))
            if not window_title or title not in window_title:
                problems.append("window title %r does not contain %r" % (window_title, title))
            found = tools.evaluate(LINKS_AND_LISTINGS) or {"links": [], "listings": [], "headings": []}
            for heading_text in found["headings"]:
                problems.append("a heading shows backticks: %r" % heading_text)
            linked = {urllib.parse.urlsplit(entry["href"]).path.rstrip("/") for entry in found["links"]}
            for required in required_links.get(path, []):
                if "/" + required.strip("/") not in linked:
                    problems.append("no link to %s" % required)
            for entry in found["links"]:
                link = entry["href"]
                if entry["onThisPage"] is not None:
                    links_checked += 1
                    if not entry["onThisPage"]:
                        problems.append("broken link %s: this page has no element with that id" % link)
                    continue
                if not site.is_internal(link):
                    if link.startswith(("http:", "https:", "mailto:")):
                        external_links.add(link)
                    else:
                        problems.append("link %r: not a web address (an unresolved DocC link?)" % link)
                    continue
                links_checked += 1
                problem = site.problem_with(link)
                if problem:
                    problems.append("broken link %s: %s" % (link, problem))
            # Articles and landing pages (the guides) fit the column; a symbol's page shows its doc
            # comment's listings, which may scroll.
            role = json.loads(site.page_data(urllib.parse.urlsplit(url).path) or "{}").get("metadata", {}).get("role")
            strict = role in ("article", "collection", "collectionGroup", None)
            for listing in found["listings"]:
                listings_checked += 1
                if not strict:
                    if listing["overflows"]:
                        symbol_listings_scrolling += 1
                    continue
                widest = max(widest, listing["longest"])
                narrowest_column = min(narrowest_column or listing["columns"], listing["columns"])
                if listing["overflows"]:
                    problems.append("a code listing is wider than the content column (%d columns shown, its "
                                    "longest line %d): %r" % (listing["columns"], listing["longest"], listing["firstLine"]))
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
    print("docc-browser-check: %d pages, %d internal links followed (%d distinct pages), %d code listings; "
          "those of articles and landing pages within the content column (their longest line %d characters, "
          "the column %s wide, a %d-pixel window); %d of symbols' doc comments wider, which scroll; "
          "%d external links not fetched"
          % (len(pages), links_checked, len(site.pages), listings_checked, widest, narrowest_column, WINDOW_WIDTH,
             symbol_listings_scrolling, len(external_links)))
    if failures:
        sys.exit("docc-browser-check: %d of %d pages failed" % (failures, len(pages)))


if __name__ == "__main__":
    main()
