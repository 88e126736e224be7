/// The style sheet and the one script, served from `BASE/_/` (no inline style or script: the
/// Content-Security-Policy forbids both). The script only moves the receipt's clock; every page
/// works without it, and the receipt's sweep moves by CSS alone.
enum ServerAssets {
    static let css = """
        :root { color-scheme: light; --ok: #0a7d32; --again: #9a6700; --bad: #b42318; --ink: #1b1f24; --soft: #57606a; }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; font-family: "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", system-ui, sans-serif;
               color: var(--ink); background: #f6f8fa; }
        main { max-width: 32rem; margin: 0 auto; padding: 1.5rem 1.25rem 1rem; }
        .status { font-size: 1.6rem; font-weight: 700; margin: 0.5rem 0 1rem; color: var(--ok); }
        .again .status, .status.again { color: var(--again); }
        .status.refused { color: var(--bad); }
        .mark { display: inline-block; min-width: 1.2em; }
        h1.venue { font-size: 2.2rem; margin: 0.25rem 0 0; word-break: break-word; }
        .venue-id { color: var(--soft); margin: 0.1rem 0 1rem; letter-spacing: 0.05em; }
        dl { margin: 0 0 1rem; } dt { color: var(--soft); font-size: 0.95rem; } dd { margin: 0.1rem 0 0; font-size: 1.5rem; font-weight: 600; }
        .live { position: relative; overflow: hidden; border-radius: 0.75rem; background: var(--ok); color: #fff;
                padding: 1rem; text-align: center; font-size: 2.6rem; font-variant-numeric: tabular-nums; font-weight: 700; }
        .again .live { background: var(--again); }
        .sweep { position: absolute; top: 0; bottom: 0; left: -30%; width: 30%;
                 background: linear-gradient(90deg, transparent, rgba(255,255,255,0.45), transparent);
                 animation: sweep 1.6s linear infinite; }
        @keyframes sweep { from { left: -30%; } to { left: 100%; } }
        @media (prefers-reduced-motion: reduce) { .sweep { animation-duration: 4s; } }
        .live time { position: relative; }
        .note, .hint, .advice { color: var(--soft); font-size: 1.05rem; line-height: 1.5; }
        .advice { color: var(--ink); font-size: 1.2rem; }
        .error { color: var(--bad); font-weight: 600; }
        form { display: grid; gap: 0.5rem; margin-top: 0.5rem; }
        label { font-weight: 600; }
        input { font: inherit; font-size: 1.6rem; padding: 0.6rem 0.75rem; border: 2px solid #8c959f; border-radius: 0.5rem; width: 100%; }
        button, .button { font: inherit; font-size: 1.3rem; font-weight: 700; padding: 0.75rem; border: 0; border-radius: 0.5rem;
                          background: #0969da; color: #fff; text-align: center; text-decoration: none; display: block; }
        footer { max-width: 32rem; margin: 0 auto; padding: 0 1.25rem 2rem; }
        footer a { color: #0969da; }

        """

    static let script = """
        "use strict";
        // Moves the receipt's clock every second in the server's time zone (data-offset, seconds east
        // of UTC), so a live receipt is told from a screenshot. Nothing else needs it.
        (function () {
          var clock = document.getElementById("clock");
          if (!clock) return;
          var offset = parseInt(clock.getAttribute("data-offset"), 10) || 0;
          function two(n) { return (n < 10 ? "0" : "") + n; }
          function tick() {
            var t = new Date(Date.now() + offset * 1000);
            clock.textContent = two(t.getUTCHours()) + ":" + two(t.getUTCMinutes()) + ":" + two(t.getUTCSeconds());
            setTimeout(tick, 1000 - (Date.now() % 1000));
          }
          tick();
        })();

        """
}
