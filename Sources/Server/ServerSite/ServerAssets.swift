/// The style sheet and the one script, served from `BASE/_/` (no inline style or script: the
/// Content-Security-Policy forbids both). The script only animates what the server already
/// said (the receipt's clock and ageing, the 429 page's seconds); every page is complete and
/// true without it, and the receipt's sweep moves by CSS alone.
enum ServerAssets {
    /// Colours: each text colour is at least 4.5:1 on its background, light and dark (WCAG AA);
    /// the venue's accent only paints the card's top edge. Korean wraps between words, never
    /// inside one (`keep-all`); a word longer than its line (a URL) may still break rather
    /// than overflow a 320 px screen.
    static let css = """
        :root { color-scheme: light dark; --page: #eef1f4; --card: #fff; --ink: #1b1f24; --soft: #4d5661; --line: #d0d7de;
                --admitted: #0a7d32; --aged: #57606a; --refused: #b42318; --wait: #8a4b00; --info: #0969da;
                --on-tone: #fff; --button-ink: #fff; --accent: #0969da; --tone: var(--info);
                word-break: keep-all; overflow-wrap: anywhere; line-break: strict; }
        @media (prefers-color-scheme: dark) {
          :root { --page: #0d1117; --card: #161b22; --ink: #e6edf3; --soft: #a3adb8; --line: #30363d;
                  --admitted: #3fb950; --aged: #9da7b3; --refused: #ff7b72; --wait: #e3b341; --info: #58a6ff;
                  --on-tone: #0d1117; --button-ink: #0d1117; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; min-height: 100vh; background: var(--page); color: var(--ink); line-height: 1.5;
               font-family: "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", "NanumGothic", system-ui, sans-serif; }
        .tone-admitted { --tone: var(--admitted); } .tone-aged { --tone: var(--aged); } .tone-refused { --tone: var(--refused); }
        .tone-wait { --tone: var(--wait); } .tone-info { --tone: var(--info); }
        main.card { max-width: 30rem; margin: 1rem auto 0.75rem; background: var(--card); border-radius: 1.25rem; overflow: hidden;
                    border-top: 0.5rem solid var(--accent); box-shadow: 0 1px 3px rgba(0,0,0,0.12), 0 8px 24px rgba(0,0,0,0.08); }
        @media (max-width: 30rem) { main.card { margin: 0.5rem; } }
        /* A receipt is a pass: its card fills the phone's screen down to the language switch. */
        .receipt main.card { display: flex; flex-direction: column; min-height: calc(100vh - 5.5rem); }
        .receipt main.card .body { flex: 1 0 auto; display: flex; flex-direction: column; }
        .receipt .note { margin-top: auto; padding-top: 1rem; }
        .refusal .icon { width: 3.5rem; height: 3.5rem; }
        .receipt .icon { width: 3.5rem; height: 3.5rem; }
        .receipt h1 { font-size: clamp(1.6rem, 8vw, 2.3rem); }
        .receipt .live { padding: 1rem 1rem 1.5rem; margin-top: 0.5rem; }
        .receipt .live time { font-size: clamp(2.8rem, 17vw, 4.25rem); }
        .band { display: flex; align-items: center; gap: 0.75rem; padding: 1rem 1.25rem 0.75rem; border-bottom: 1px solid var(--line); }
        .logo { width: 3rem; height: 3rem; object-fit: contain; flex: none; }
        .venue { margin: 0; min-width: 0; }
        .venue-name { display: block; font-size: clamp(1.25rem, 5.5vw, 1.6rem); font-weight: 700; line-height: 1.25; }
        .venue-id { display: block; color: var(--soft); font-size: 0.9rem; letter-spacing: 0.04em; }
        .outcome { display: flex; align-items: center; gap: 0.75rem; padding: 1.25rem 1.25rem 0.25rem; color: var(--tone); }
        .icon { width: 3rem; height: 3rem; flex: none; color: var(--tone); }
        .icon .mark { stroke: var(--on-tone); }
        h1 { margin: 0; font-size: clamp(1.4rem, 6.5vw, 1.9rem); line-height: 1.3; font-weight: 800; color: var(--tone); min-width: 0; }
        h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
        .body { padding: 0.5rem 1.25rem 1.25rem; }
        .facts { margin: 0.5rem 0 1rem; } .facts dt { color: var(--soft); font-size: 0.95rem; }
        .facts dd { margin: 0; font-size: 1.4rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .facts .zone { font-size: 0.85rem; font-weight: 400; color: var(--soft); white-space: nowrap; }
        .live { position: relative; overflow: hidden; border-radius: 0.9rem; background: var(--tone); color: var(--on-tone);
                padding: 0.75rem 1rem 1rem; text-align: center; }
        .live-label { margin: 0; font-size: 0.95rem; font-weight: 600; }
        .live time { display: block; font-size: clamp(2.2rem, 12vw, 3rem); font-weight: 800; font-variant-numeric: tabular-nums; line-height: 1.2; }
        .sweep { position: absolute; left: -35%; bottom: 0; width: 35%; height: 0.4rem; border-radius: 0.2rem; background: var(--on-tone);
                 animation: sweep 1.6s linear infinite; }
        @keyframes sweep { from { left: -35%; } to { left: 100%; } }
        @keyframes pulse { from { opacity: 1; } to { opacity: 0.25; } }
        @media (prefers-reduced-motion: reduce) {
          .sweep { left: 0; width: 100%; animation: pulse 2s ease-in-out infinite alternate; }
        }
        .aged .sweep, .tone-aged .sweep { display: none; }
        .note, .hint, .help { color: var(--soft); font-size: 1rem; }
        .note { margin: 1rem 0 0; }
        .advice { font-size: 1.15rem; margin: 0.5rem 0 1rem; }
        .countdown { font-size: 1.15rem; font-weight: 700; font-variant-numeric: tabular-nums; margin: 0 0 1rem; }
        .error { color: var(--refused); font-weight: 700; }
        .actions { margin: 0 0 0.75rem; }
        form { display: grid; gap: 0.5rem; margin-top: 0.5rem; }
        label { font-weight: 700; }
        input { font: inherit; font-size: 1.5rem; padding: 0.6rem 0.75rem; border: 2px solid var(--soft); border-radius: 0.6rem; width: 100%;
                background: var(--card); color: var(--ink); }
        input:focus-visible, .button:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid var(--info); outline-offset: 2px; }
        button, .button { font: inherit; font-size: 1.2rem; font-weight: 700; padding: 0.8rem 1rem; border: 0; border-radius: 0.75rem; min-height: 3rem;
                          background: var(--info); color: var(--button-ink); text-align: center; text-decoration: none; display: block; width: 100%; cursor: pointer; }
        .hint { margin: 0; }
        .privacy { margin: 0.75rem 0 0.5rem; padding: 0.9rem 1rem; border: 1px solid var(--line); border-radius: 0.75rem; font-size: 0.95rem; }
        .privacy dl { margin: 0; display: grid; gap: 0.5rem; } .privacy dt { font-weight: 700; } .privacy dd { margin: 0; color: var(--ink); }
        footer.switch { max-width: 30rem; margin: 0 auto; padding: 0.25rem 1.25rem 2rem; text-align: center; }
        footer.switch form { display: block; margin: 0; }
        footer.switch a, button.link { display: inline-flex; align-items: center; gap: 0.4rem; width: auto; min-height: 2.75rem; padding: 0.5rem 1rem;
                                       border: 1px solid var(--line); border-radius: 999px; background: var(--card); color: var(--ink);
                                       font-size: 1rem; font-weight: 600; text-decoration: none; }
        .globe { width: 1.1rem; height: 1.1rem; }

        """

    static let script = """
        "use strict";
        // Animates what the server already said, in the server's time zone (data-offset, seconds
        // east of UTC): the receipt's clock ticks (a live receipt is told from a screenshot), a
        // fresh receipt turns aged when its freshness runs out while the page stays open, and the
        // 429 page's seconds count down. Every page is true without it.
        (function () {
          function two(n) { return (n < 10 ? "0" : "") + n; }
          var clock = document.getElementById("clock");
          if (clock) {
            var offset = parseInt(clock.getAttribute("data-offset"), 10) || 0;
            (function tick() {
              var t = new Date(Date.now() + offset * 1000);
              clock.textContent = two(t.getUTCHours()) + ":" + two(t.getUTCMinutes()) + ":" + two(t.getUTCSeconds());
              setTimeout(tick, 1000 - (Date.now() % 1000));
            })();
          }
          var live = document.getElementById("live");
          var freshFor = live && parseInt(live.getAttribute("data-fresh-for"), 10);
          if (freshFor > 0) {
            setTimeout(function () {
              var body = document.body;
              body.classList.remove("tone-admitted", "fresh");
              body.classList.add("tone-aged", "aged");
              var heading = document.querySelector("h1");
              if (heading) heading.textContent = live.getAttribute("data-aged-heading");
              var note = document.getElementById("receipt-note");
              if (note) note.textContent = live.getAttribute("data-aged-note");
            }, freshFor * 1000);
          }
          var countdown = document.getElementById("countdown");
          if (countdown) {
            var left = parseInt(countdown.getAttribute("data-seconds"), 10) || 0;
            var seconds = countdown.querySelector(".seconds");
            var unit = countdown.getAttribute("data-unit");
            var end = Date.now() + left * 1000;
            countdown.hidden = false;
            (function count() {
              var now = Math.max(0, Math.ceil((end - Date.now()) / 1000));
              if (now === 0) { countdown.textContent = countdown.getAttribute("data-done"); return; }
              seconds.textContent = now + unit;
              setTimeout(count, 250);
            })();
          }
        })();

        """
}
