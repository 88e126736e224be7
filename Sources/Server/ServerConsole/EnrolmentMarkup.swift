import ServerSecondFactor
import ServerWeb

/// The markup of a second factor's enrolment (the QR code an authenticator app scans, the key
/// for one that cannot, the code field that confirms it) and of the recovery codes shown once:
/// what the sign-in's enrolment (`require-totp`) and the account page both show.
enum EnrolmentMarkup {
    /// The enrolment of `uri` (holding `secret`), then a form to `action` with `hidden` fields
    /// and the code that proves the app has it; `error` above the form.
    static func enrolment(_ request: ConsoleRequest, uri: OTPAuthURI, secret: TOTPSecret, qr: EnrolmentQR, action: String,
                          hidden: HTML, error: String?) -> HTML {
        let words = request.words
        // An unreadable drawing (libqrencode missing) still leaves the key to type.
        let drawing: HTML = (try? qr.svgElement(uri.text)).map { svg -> HTML in
            // The door for raw markup: an <svg> that SharedQR's SVGRenderer wrote, of its own
            // elements and numbers only (the URI it encodes is in no attribute or text).
            "<div class=\"qr\" role=\"img\" aria-label=\"\(words.qrLabel)\">" + HTML(unescaped: svg) + "</div>"
        } ?? ""
        let key = (try? secret.base32()).map(Self.grouped) ?? ""
        let alert: HTML = error.map { error -> HTML in "<p class=\"error\" role=\"alert\">\(error)</p>" } ?? ""
        return """
            <p>\(words.enrolHint)</p>
            \(drawing)
            <p class="note">\(words.enrolKey) <code class="key">\(key)</code></p>
            \(alert)
            <form method="post" action="\(action)">\(hidden)
            <label for="code">\(words.codeLabel)</label>
            <input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" autocapitalize="none" spellcheck="false" required>
            <button type="submit">\(words.confirmCode)</button>
            </form>
            """
    }

    /// The recovery codes, shown once, and a link on to `next`.
    static func recoveryCodes(_ request: ConsoleRequest, _ codes: [RecoveryCode], next: String) -> HTML {
        let words = request.words
        let items = codes.map { code -> HTML in "<li><code>\(code.display)</code></li>" }.joined()
        return """
            <h1>\(words.recoveryCodesTitle)</h1>
            <p class="ok" role="status">\(words.secondFactorOn)</p>
            <p>\(words.recoveryCodesHint)</p>
            <ol class="codes">\(items)</ol>
            <p><a class="button" href="\(next)">\(words.continueWord)</a></p>
            """
    }

    /// A key in groups of four, as apps show one to type.
    static func grouped(_ key: String) -> String {
        let characters = Array(key)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: " ")
    }
}
