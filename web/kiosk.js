/* qrcheckin web kiosk: shows the daemon's current code from its output directory, live.
 *
 * Reads `current.json` (docs/STATE.md) without caching every half second and right after each
 * expiry, loads `current.png` under a URL unique to the code (window and sequence) and swaps it in
 * only once it is decoded, so the QR, the safe number and the countdown always belong together and
 * never flash. Time comes from the server: the HTTP `Date` header of every `current.json`
 * response, carried forward with the browser's monotonic clock, so a display whose own clock is
 * wrong still counts down right. A code is never shown more than GRACE_SECONDS past its expiry.
 *
 * Query parameters: `lang=en` (default Korean; any letter case), `venue=V` (read `V/current.json`,
 * for a multi-venue output directory; venue ids are upper case, so `gate-1` means GATE-1),
 * `name=TEXT` (the venue's display name above the title), `ops=1` (also show what only operators
 * need: the clock or health warning and the modes footer; the public never sees them). Plain
 * script, no build step, no request beyond this origin.
 */
"use strict";

(function () {
  /** The words, shared with `qrcheckin status` and `show` (Sources/Kiosk/KioskViews/Vocabulary.swift). */
  const WORDS = {
    ko: {
      title: "입장을 위한 QR 체크인",
      subtitle: "QR 코드를 스캔해 체크인하세요. 스캔할 수 없으면 휴대전화에서 안심번호를 입력하세요.",
      safeNumber: "안심번호",
      formLine: "안심번호 입력: ",
      inside: "현재 인원 ",
      countdown: (s) => ["남은 시간 ", s + "초"],
      qrAlt: (n) => "체크인 QR 코드 (안심번호 " + n + ")",
      loading: "불러오는 중…",
      paused: "체크인 일시 중지",
      pausedBody: "관리자가 코드 새로고침을 멈췄습니다",
      stale: "체크인 코드가 최신이 아닙니다",
      staleExpired: (at) => "데몬이 코드를 갱신하지 않습니다 (마지막 갱신 " + at + ")",
      unreachable: "서버에서 current.json을 받을 수 없습니다",
      notRunning: "체크인이 실행 중이 아닙니다",
      stoppedAt: (at) => "데몬이 종료되었습니다 (" + at + ")",
      missing: "current.json이 없습니다: 데몬을 기다리는 중",
      unreadable: "current.json을 읽을 수 없습니다",
      badVenue: "잘못된 장소 ID (venue)",
      shake: { on: "흔들기 켜짐", off: "흔들기 꺼짐" },
      refresh: { auto: "자동 새로고침", paused: "새로고침 일시 중지" },
      warning: "경고: ",
      clock: (e) => e === null || e === undefined
        ? "시계가 동기화되지 않음: 코드가 만료로 거부될 수 있음"
        : "시계가 동기화되지 않음 (±" + e + "초): 코드가 만료로 거부될 수 있음",
      waiting: "시계 동기화를 기다리는 중",
      waitingBody: "시계가 동기화될 때까지 체크인 코드를 표시하지 않습니다",
    },
    en: {
      title: "QR check-in",
      subtitle: "Scan the QR code to check in. If you cannot scan, type the safe number on your phone.",
      safeNumber: "Safe number",
      formLine: "Type it at ",
      inside: "Inside now ",
      countdown: (s) => ["Time left ", s + "s"],
      qrAlt: (n) => "Check-in QR code (safe number " + n + ")",
      loading: "Loading…",
      paused: "Check-in paused",
      pausedBody: "An operator paused the codes: none is shown",
      stale: "Check-in code out of date",
      staleExpired: (at) => "The daemon stopped renewing it (last update " + at + ")",
      unreachable: "The server does not answer for current.json",
      notRunning: "Check-in is not running",
      stoppedAt: (at) => "The daemon stopped at " + at,
      missing: "No current.json yet: waiting for the daemon",
      unreadable: "Cannot read current.json",
      badVenue: "Invalid venue id",
      shake: { on: "shake on", off: "shake off" },
      refresh: { auto: "auto refresh", paused: "refresh paused" },
      warning: "Warning: ",
      clock: (e) => e === null || e === undefined
        ? "clock not synchronised: codes may be rejected as expired"
        : "clock not synchronised (±" + e + "s): codes may be rejected as expired",
      waiting: "Waiting for the clock to synchronise",
      waitingBody: "No check-in code until the system clock is synchronised",
    },
  };

  /** How long past its expiry (server time) a code may stay up while the next one loads. */
  const GRACE_SECONDS = 1;
  const POLL_MS = 500;
  const FETCH_TIMEOUT_MS = 4000;
  /** Date-header samples older than this are dropped, so a server clock step is followed. */
  const SAMPLE_WINDOW_MS = 60000;
  /** A venue id as the daemon accepts it (1–16 of 0-9 A-Z - .), never only dots. */
  const VENUE = /^(?!\.+$)[0-9A-Z.-]{1,16}$/;

  const params = new URLSearchParams(location.search);
  const lang = (params.get("lang") || "").toLowerCase() === "en" ? "en" : "ko";
  const words = WORDS[lang];
  // Venue ids are upper case, as the daemon, the units and `qrcheckin --venue` spell them.
  const typedVenue = params.get("venue");
  const venue = typedVenue === null ? null : typedVenue.toUpperCase();
  const badVenue = venue !== null && !VENUE.test(venue);
  const base = venue && !badVenue ? encodeURIComponent(venue) + "/" : "";
  // What only operators need (the clock warning, the modes) shows with ?ops=1 alone.
  const ops = params.get("ops") === "1";
  const venueName = (params.get("name") || "").trim().slice(0, 64);
  // How many are inside ("23 / 40"), with ?occupancy=1: read from this site's occupancy/VENUE,
  // which the nginx site passes to the check-in server (its CHANGE: line; docs/WEB.md).
  const occupancy = params.get("occupancy") === "1";
  const OCCUPANCY_POLL_MS = 5000;

  const $ = (id) => document.getElementById(id);
  const main = $("kiosk");
  const qrBox = $("qr-box");
  const countdown = $("countdown");

  /**
   * The server's clock, from the `Date` header (whole seconds) of each response. A response
   * stamped D, sent at monotonic s and received at r, bounds the server time T at monotonic m:
   * D + (m − r) ≤ T < D + 1 + (m − s). Samples taken at different sub-second phases tighten the
   * bounds; the estimate is their midpoint. The display's own wall clock is never used.
   */
  const serverClock = {
    samples: [],
    low: null,
    high: null,
    add(dateHeader, sentMs, receivedMs) {
      const stamp = Date.parse(dateHeader || "");
      if (Number.isNaN(stamp)) return;
      this.samples.push({ low: stamp - receivedMs, high: stamp + 1000 - sentMs, at: receivedMs });
      this.samples = this.samples.filter((s) => receivedMs - s.at <= SAMPLE_WINDOW_MS);
      this.bound();
      if (this.low > this.high) {
        // The server's clock stepped: only the newest sample describes it now.
        this.samples = this.samples.slice(-1);
        this.bound();
      }
    },
    bound() {
      this.low = Math.max(...this.samples.map((s) => s.low));
      this.high = Math.min(...this.samples.map((s) => s.high));
    },
    /** Server time in Unix milliseconds; the local clock only before the first response. */
    nowMs() {
      if (this.low === null) return Date.now();
      return performance.now() + (this.low + this.high) / 2;
    },
  };

  const model = {
    doc: null,        // the newest valid current.json
    error: null,      // null | "unreachable" | "missing" | "unreadable"
    shown: null,      // the code whose image is on screen: {key, safeNumber, expiresAt, window, seq}
    pendingKey: null, // the code whose image is loading
  };

  const keyOf = (doc) => doc.window + "-" + doc.seq;
  /** A moment as the people at the door read it: the display's local time, in the page's language. */
  const localTime = (seconds) => new Date(seconds * 1000).toLocaleString(lang === "ko" ? "ko-KR" : "en-GB",
    { dateStyle: "medium", timeStyle: "medium" });
  const isInt = (v) => Number.isInteger(v);

  /** Whether `doc` is a current.json this page understands (unknown extra keys are fine). */
  function valid(doc) {
    if (!doc || typeof doc !== "object" || doc.version !== 1) return false;
    if (!["running", "paused", "waiting", "stopped"].includes(doc.state)) return false;
    if (!isInt(doc.updatedAt)) return false;
    if (doc.state !== "running") return true;
    return typeof doc.url === "string" && typeof doc.safeNumber === "string" &&
      isInt(doc.window) && isInt(doc.seq) && isInt(doc.expiresAt);
  }

  async function poll() {
    if (badVenue) { render(); return; } // nothing to read: no other venue's code below the message
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), FETCH_TIMEOUT_MS);
    const sent = performance.now();
    try {
      const response = await fetch(base + "current.json", {
        cache: "no-store", credentials: "omit", signal: controller.signal,
      });
      const received = performance.now();
      serverClock.add(response.headers.get("Date"), sent, received);
      // For tests and operators: how far the display's own clock is from the server's.
      main.dataset.clockOffsetMs = String(Math.round(serverClock.nowMs() - Date.now()));
      if (response.status === 404) {
        model.doc = null;
        model.error = "missing";
      } else if (!response.ok) {
        model.error = "unreachable";
      } else {
        let doc = null;
        try { doc = JSON.parse(await response.text()); } catch (_) { doc = null; }
        if (valid(doc)) {
          model.doc = doc;
          model.error = null;
          if (doc.state === "running") loadImage(doc);
        } else {
          model.doc = null;
          model.error = "unreadable";
        }
      }
    } catch (_) {
      model.error = "unreachable";
    } finally {
      clearTimeout(timer);
    }
    render();
    setTimeout(poll, nextPollDelay());
  }

  /** Every POLL_MS, and just after the shown code's expiry so the next one appears at once. */
  function nextPollDelay() {
    const expiresAt = model.shown ? model.shown.expiresAt : null;
    if (expiresAt === null) return POLL_MS;
    const untilExpiry = expiresAt * 1000 - serverClock.nowMs() + 60;
    return untilExpiry > 20 && untilExpiry < POLL_MS ? untilExpiry : POLL_MS;
  }

  /** Loads the code's image off screen and swaps it in once decoded (no flash, no half image). */
  function loadImage(doc) {
    const key = keyOf(doc);
    if ((model.shown && model.shown.key === key) || model.pendingKey === key) return;
    model.pendingKey = key;
    const image = new Image();
    image.id = "qr";
    image.className = "qr";
    image.alt = words.qrAlt(doc.safeNumber);
    image.src = base + "current.png?w=" + doc.window + "&s=" + doc.seq;
    image.decode().then(() => stillCurrent(key)).then((current) => {
      if (model.pendingKey !== key) return;
      model.pendingKey = null;
      if (!current) return; // a rotation landed between the two reads: the next poll loads it
      const old = $("qr");
      old.replaceWith(image);
      model.shown = {
        key, safeNumber: doc.safeNumber, expiresAt: doc.expiresAt, window: doc.window, seq: doc.seq,
        url: doc.url,
      };
      fitImage();
      render();
    }, () => {
      if (model.pendingKey === key) model.pendingKey = null; // retried at the next poll
    });
  }

  /**
   * Whether current.json still names the code `key` after its image arrived. The daemon renames
   * the PNG before the JSON, so a rotation between the page's JSON read and its image read could
   * pair a new image with the old safe number; reading the JSON again after the image closes that
   * gap (the same JSON → PNG → JSON order the daemon's soak test reads in).
   */
  async function stillCurrent(key) {
    try {
      const response = await fetch(base + "current.json", { cache: "no-store", credentials: "omit" });
      const doc = response.ok ? JSON.parse(await response.text()) : null;
      return valid(doc) && doc.state === "running" && keyOf(doc) === key;
    } catch (_) {
      return false;
    }
  }

  /**
   * Sizes the QR to the largest whole number of device pixels per module that fits its box, so
   * every module is equally wide and sharp. The module size is measured from the image: along the
   * diagonal, the first dark run is the finder pattern's one-module outer ring.
   */
  function fitImage() {
    const image = $("qr");
    if (!image.naturalWidth) return;
    const style = getComputedStyle(qrBox);
    const available = Math.min(
      qrBox.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      qrBox.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom));
    const ratio = window.devicePixelRatio || 1;
    const modules = moduleCount(image);
    let size = available;
    if (modules) {
      const perModule = Math.floor((available * ratio) / modules);
      if (perModule >= 1) {
        size = (perModule * modules) / ratio;
        image.dataset.modulePx = String(perModule);
      }
    }
    image.dataset.modules = String(modules || "");
    image.style.width = size + "px";
    image.style.height = size + "px";
  }

  /** Modules across the image (quiet zone included), or 0 if it does not look like a QR. */
  function moduleCount(image) {
    const n = image.naturalWidth;
    if (n !== image.naturalHeight || n < 21) return 0;
    const canvas = document.createElement("canvas");
    canvas.width = n;
    canvas.height = n;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, n, n).data;
    const dark = (i) => pixels[(i * n + i) * 4] < 128;
    let i = 0;
    while (i < n && !dark(i)) i++;
    const start = i;
    while (i < n && dark(i)) i++;
    const scale = i - start;
    return scale > 0 && n % scale === 0 ? n / scale : 0;
  }

  /** Sets text only when it differs: the live regions must not re-announce every tick. */
  function setText(element, text) {
    if (element.textContent !== text) element.textContent = text;
  }

  function setMessage(title, body) {
    setText($("message-title"), title);
    setText($("message-body"), body || "");
  }

  function setWarning(text) {
    const warning = $("warning");
    const shown = ops ? text : "";
    setText(warning, shown);
    if (warning.hidden !== !shown) warning.hidden = !shown;
  }

  /**
   * The safe-number form's address: the code's URL without its token (`BASE/VENUE`), scheme and
   * host in lower case as a phone's address bar shows them, `https://` left out (browsers add it).
   */
  function formAddress(url) {
    const match = /^([A-Za-z]+):\/\/([^/]+)(\/.*)?\/[^/]*$/.exec(url || "");
    if (!match) return "";
    const scheme = match[1].toLowerCase();
    return (scheme === "https" ? "" : scheme + "://") + match[2].toLowerCase() + (match[3] || "");
  }

  function setFormLine(url) {
    const line = $("form-line");
    const address = formAddress(url);
    if (line.dataset.address === address) return;
    line.dataset.address = address;
    if (!address) { line.replaceChildren(); line.hidden = true; return; }
    const span = document.createElement("span");
    span.className = "address";
    span.textContent = address;
    line.replaceChildren(words.formLine, span);
    line.hidden = false;
  }

  /** Decides what the screen says now; called on every tick, poll and image swap. */
  function render() {
    const nowMs = serverClock.nowMs();
    const doc = model.doc;
    let state;
    let warning = "";
    if (badVenue) {
      state = "unreadable";
      setMessage(words.badVenue, typedVenue);
    } else if (model.error === "missing") {
      state = "stopped";
      setMessage(words.notRunning, words.missing);
    } else if (model.error === "unreadable") {
      state = "unreadable";
      setMessage(words.unreadable, "");
    } else if (!doc) {
      state = model.error ? "stale" : "loading";
      setMessage(model.error ? words.stale : words.loading, model.error ? words.unreachable : "");
    } else if (doc.state === "paused") {
      state = "paused";
      setMessage(words.paused, words.pausedBody);
    } else if (doc.state === "waiting") {
      // require-clock-sync: no code until the kiosk's clock can be trusted.
      state = "paused";
      setMessage(words.waiting, words.waitingBody);
    } else if (doc.state === "stopped") {
      state = "stopped";
      setMessage(words.notRunning, words.stoppedAt(localTime(doc.updatedAt)));
    } else {
      const shown = model.shown;
      const live = shown && nowMs < (shown.expiresAt + GRACE_SECONDS) * 1000;
      const docExpired = nowMs >= (doc.expiresAt + GRACE_SECONDS) * 1000;
      if (live && !docExpired) {
        state = "live";
        setMessage("", "");
        if (doc.health === "degraded") warning = words.warning + (doc.reason || "degraded");
        else if (doc.clock && doc.clock.synchronized === false) warning = words.warning + words.clock(doc.clock.maxErrorSeconds);
      } else if (docExpired || model.error) {
        state = "stale";
        setMessage(words.stale, model.error ? words.unreachable : words.staleExpired(localTime(doc.updatedAt)));
        if (doc.health === "degraded" && doc.reason) warning = words.warning + doc.reason;
      } else {
        state = "loading";
        setMessage(words.loading, "");
      }
    }
    if (state !== "live" && state !== "loading") model.shown = null;
    show(state, nowMs);
    setWarning(warning);
  }

  function show(state, nowMs) {
    if (main.dataset.state !== state) main.dataset.state = state;
    const shown = state === "live" ? model.shown : null;
    const image = $("qr");
    if (image.hidden !== !shown) image.hidden = !shown;
    if ($("message").hidden !== !!shown) $("message").hidden = !!shown;
    setText($("safe-number"), shown ? shown.safeNumber : "");
    if (shown) {
      main.dataset.window = String(shown.window);
      main.dataset.seq = String(shown.seq);
      const seconds = Math.ceil(Math.max(0, shown.expiresAt * 1000 - nowMs) / 1000);
      if (countdown.dataset.seconds !== String(seconds)) {
        const [label, red] = words.countdown(seconds);
        const span = document.createElement("span");
        span.className = "seconds";
        span.textContent = red;
        countdown.replaceChildren(label, span);
        countdown.dataset.seconds = String(seconds);
      }
    } else {
      delete main.dataset.window;
      delete main.dataset.seq;
      if (countdown.dataset.seconds) {
        countdown.replaceChildren();
        delete countdown.dataset.seconds;
      }
    }
    const doc = model.doc;
    setFormLine(shown ? shown.url : "");
    const modes = !ops ? "" : doc ? [doc.venue, words.shake[doc.shake], words.refresh[doc.refresh]]
      .filter(Boolean).join(" | ") : (badVenue ? "" : venue || ""); // the separator of Vocabulary.modes
    setText($("modes"), modes);
    if ($("modes").hidden !== !modes) $("modes").hidden = !modes;
  }

  /** Shows `inside` (and `/ capacity` when the venue has one); hides the line on any failure. */
  async function pollOccupancy() {
    const line = $("occupancy");
    const id = model.doc && VENUE.test(model.doc.venue || "") ? model.doc.venue : null;
    let text = "";
    if (id) {
      try {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), FETCH_TIMEOUT_MS);
        const response = await fetch("occupancy/" + encodeURIComponent(id), { cache: "no-store", credentials: "omit",
                                                                             signal: controller.signal });
        clearTimeout(timer);
        const data = response.ok ? await response.json() : null;
        if (data && Number.isInteger(data.inside) && data.inside >= 0) {
          text = words.inside + data.inside + (Number.isInteger(data.capacity) ? " / " + data.capacity : "");
        }
      } catch (error) {
        text = "";
      }
    }
    setText(line, text);
    if (line.hidden !== !text) line.hidden = !text;
    setTimeout(pollOccupancy, OCCUPANCY_POLL_MS);
  }

  document.documentElement.lang = lang;
  document.title = words.title;
  $("title").textContent = words.title;
  if (venueName) {
    $("venue-name").textContent = venueName;
    $("venue-name").hidden = false;
    document.title = venueName + " · " + words.title;
  }
  $("subtitle").textContent = words.subtitle;
  $("safe-label").textContent = words.safeNumber;
  window.addEventListener("resize", fitImage);
  setInterval(render, 200);
  render();
  poll();
  if (occupancy) pollOccupancy();
})();
