# Finding the system's Chromium for the browser steps (sourced). Nothing is ever downloaded: the
# browser checks use Debian's chromium (CHROMIUM_PATH, else /usr/bin/chromium, else `chromium`
# or `chromium-browser` on PATH).

# Prints the path of a runnable Chromium, or nothing.
find_chromium() {
  local browser=${CHROMIUM_PATH:-}
  if [ -z "$browser" ]; then
    if [ -x /usr/bin/chromium ]; then browser=/usr/bin/chromium
    else browser=$(command -v chromium || command -v chromium-browser || true)
    fi
  fi
  if [ -n "$browser" ] && [ -x "$browser" ]; then echo "$browser"; fi
}

# The hint printed when there is none.
chromium_hint() {
  echo "no Chromium found: the browser steps (browser mode, HTML report, Playwright) need one."
  echo "  Install Debian's: sudo apt-get install chromium   (or set CHROMIUM_PATH=/path/to/chromium)"
  echo "  Nothing is downloaded. npm test (the quick loop) needs no browser."
}
