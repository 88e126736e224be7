import ServerHTTPTypes

/// The console's style sheet and its one script, from `/admin/_/` (no inline style or script:
/// the Content-Security-Policy allows neither). The script only refreshes the dashboard's
/// numbers every 30 s without a full reload; every page works without it.
enum ConsoleAssets {
    static func respond(to request: ConsoleRequest, name: String) -> HTTPResponse {
        let (type, body): (String, String)
        switch name {
        case "console.css": (type, body) = ("text/css; charset=utf-8", css)
        case "console.js": (type, body) = ("text/javascript; charset=utf-8", script)
        default: return request.message(404, request.words.notFound)
        }
        guard request.http.method == "GET" || request.http.method == "HEAD" else {
            return request.message(405, request.words.web.methodNotAllowed, extra: [("Allow", "GET, HEAD")])
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", type), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "public, max-age=3600")],
                            body: Array(body.utf8))
    }

    static let css = """
        :root { color-scheme: light; --ok: #0a7d32; --bad: #b42318; --ink: #1b1f24; --soft: #57606a; --link: #0550ae; }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; font-family: "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", system-ui, sans-serif; color: var(--ink); background: #f6f8fa; }
        :lang(ko) { word-break: keep-all; }
        header { background: #fff; border-bottom: 1px solid #d0d7de; padding: 0.5rem 1rem; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; justify-content: space-between; }
        nav { display: flex; flex-wrap: wrap; gap: 0.25rem 0.9rem; }
        nav a, footer a, main a { color: var(--link); }
        main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; } h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
        table { border-collapse: collapse; width: 100%; background: #fff; }
        th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid #d0d7de; vertical-align: top; }
        tfoot th, tfoot td { font-weight: 700; }
        caption { text-align: left; color: var(--soft); padding: 0.25rem 0; }
        .scroll { overflow-x: auto; }
        form { display: grid; gap: 0.4rem; margin: 0.5rem 0 1rem; max-width: 28rem; }
        form.inline, form.signout { display: inline-flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; margin: 0.1rem 0; max-width: none; }
        form.search { grid-template-columns: 1fr; }
        label { font-weight: 600; } label.check { font-weight: 400; }
        .hidden-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        input, select { font: inherit; font-size: 1.1rem; padding: 0.45rem 0.6rem; border: 2px solid #6e7781; border-radius: 0.4rem; }
        input[type=checkbox] { width: auto; }
        textarea { font-family: monospace; font-size: 1rem; padding: 0.45rem 0.6rem; border: 2px solid #6e7781; border-radius: 0.4rem; width: 100%; max-width: 28rem; box-sizing: border-box; word-break: break-all; resize: none; }
        button, .button { font: inherit; font-weight: 700; padding: 0.5rem 0.8rem; border: 0; border-radius: 0.4rem; background: #0550ae; color: #fff; text-decoration: none; display: inline-block; cursor: pointer; }
        .button.small { padding: 0.3rem 0.6rem; }
        button.danger { background: var(--bad); }
        .ok { color: var(--ok); font-weight: 600; } .error { color: var(--bad); font-weight: 600; }
        .note, .stamp, .who, .hint { color: var(--soft); }
        .hint { margin: 0; font-size: 0.9rem; }
        fieldset { border: 1px solid #d0d7de; border-radius: 0.4rem; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
        td.wrap, code { overflow-wrap: anywhere; }
        .light { font-weight: 700; white-space: nowrap; } .light-ok { color: var(--ok); } .light-late { color: #8a5a00; } .light-offline { color: var(--bad); }
        ul.problems { margin: 0; padding-left: 1.1rem; }
        @media (max-width: 40rem) {
          table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          table.cards tr, table.cards th, table.cards td { display: block; }
          table.cards tr { border-bottom: 2px solid #6e7781; padding: 0.4rem 0; }
          table.cards td, table.cards th { border: 0; }
          table.cards td::before { content: attr(data-label); display: block; font-weight: 600; color: var(--soft); }
        }
        .chart { width: 100%; max-width: 36rem; height: auto; background: #fff; }
        .chart .axis { stroke: #57606a; } .chart .grid { stroke: #d0d7de; }
        .chart text { font-size: 11px; fill: #424a53; } .chart .tick.y { text-anchor: end; } .chart .tick.x { text-anchor: middle; }
        .chart .label.x, .chart .label.capacity { text-anchor: end; } .chart .label.capacity { fill: var(--bad); font-weight: 700; }
        .chart line.capacity { stroke: var(--bad); stroke-width: 1.5; stroke-dasharray: 5 3; }
        .chart .curve { fill: none; stroke: #0550ae; stroke-width: 2; stroke-linejoin: round; } .chart .area { fill: #0550ae; fill-opacity: 0.12; }
        .chart .now { fill: #0550ae; stroke: #fff; stroke-width: 1.5; }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 26rem), 1fr)); gap: 1rem; }
        section.venue { background: #fff; border: 1px solid #d0d7de; border-top: 6px solid var(--ok); border-radius: 0.5rem; padding: 0.75rem 1rem; min-width: 0; }
        section.venue.near { border-top-color: #9a6700; } section.venue.full { border-top-color: var(--bad); }
        section.venue h2 { margin: 0 0 0.25rem; font-size: 1.25rem; overflow-wrap: anywhere; } section.venue h2 .id { color: var(--soft); font-size: 0.9rem; font-weight: 400; }
        .inside { margin: 0.25rem 0 0.5rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.4rem; }
        .inside .label { flex-basis: 100%; color: var(--soft); font-size: 0.95rem; }
        .inside .now { font-size: 2.6rem; line-height: 1.1; } .inside .of { font-size: 1.5rem; color: var(--soft); }
        .level { font-weight: 700; border-radius: 1rem; padding: 0.1rem 0.6rem; color: #fff; }
        .level.full { background: var(--bad); } .level.near { background: #7d4e00; }
        figure { margin: 0; } figcaption { color: var(--soft); font-size: 0.9rem; }
        details { margin: 0.25rem 0 0.5rem; } summary { cursor: pointer; color: var(--link); }
        table.hours th, table.hours td { padding: 0.2rem 0.4rem; font-variant-numeric: tabular-nums; }
        dl.counts { display: grid; grid-template-columns: repeat(3, 1fr); gap: 0.5rem; margin: 0.5rem 0; }
        dl.counts div { background: #f6f8fa; border-radius: 0.4rem; padding: 0.3rem 0.5rem; }
        dl.counts dt { color: var(--soft); font-size: 0.85rem; } dl.counts dd { margin: 0; font-size: 1.4rem; font-weight: 700; }
        ul.reasons { margin: 0.25rem 0; padding-left: 1.2rem; } ul.reasons code { color: var(--soft); }
        h3.lights-title { font-size: 1rem; margin: 0.6rem 0 0.2rem; }
        ul.lights { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.2rem 1rem; }
        footer { max-width: 60rem; margin: 0 auto; padding: 0 1rem 2rem; }
        @media print {
          header, footer, form, .note { display: none; }
          tr.page-break { break-before: page; }
          .roll { break-after: page; }
        }

        """

    static let script = """
        "use strict";
        // Refreshes the dashboard's numbers (the element #live) every data-refresh seconds from the
        // page itself, without a full reload; at once when a hidden tab is shown again, never
        // while it is hidden. Without this script a reload shows the same.
        (function () {
          var live = document.getElementById("live");
          if (!live || !window.fetch || !window.DOMParser) return;
          var seconds = parseInt(live.getAttribute("data-refresh"), 10) || 30;
          var timer = null, busy = false;
          function later() { clearTimeout(timer); timer = setTimeout(refresh, seconds * 1000); }
          function refresh() {
            if (busy) return;
            if (document.visibilityState === "hidden") { clearTimeout(timer); return; }
            busy = true;
            fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
              .then(function (response) { return response.ok ? response.text() : null; })
              .then(function (html) {
                if (!html) return;
                var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
                if (fresh) live.replaceChildren.apply(live, Array.prototype.slice.call(fresh.childNodes));
              })
              .catch(function () {})
              .then(function () { busy = false; later(); });
          }
          document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") refresh(); });
          later();
        })();

        """
}
