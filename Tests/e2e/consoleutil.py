"""The operator console of a `Server` (its admin port): accounts made by `qrcheckin-server user
add`, and a client that signs in and keeps its cookies as a browser does."""
import http.client
import re
import urllib.parse

from serverutil import FORM_HEADERS, hidden_inputs, server_run

ROLES = ("steward", "supervisor", "admin")


def add_user(server, name, role, password=None, tmp=None):
    """`qrcheckin-server user add NAME --role ROLE --database … --password-file FILE`."""
    password = password or f"password-{name}"
    path = (tmp or server.base) / f"password-{name}"
    path.write_text(password + "\n")
    result = server_run("user", "add", name, "--role", role, "--database", f"sqlite:{server.database}", "--password-file", str(path))
    assert result.returncode == 0, result.stderr
    return password


class Console:
    """One browser's view of the console on `port`: its cookies, its requests."""

    def __init__(self, port, source=None):
        self.port = port
        self.cookies = {}
        self.source = source

    def request(self, method, path, form=None, headers=None):
        """One request; returns (status, headers (lower-case), body bytes). Set-Cookie is kept."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                source_address=(self.source, 0) if self.source else None)
        try:
            all_headers = dict(headers or {})
            if self.cookies:
                all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            body = None
            if form is not None:
                body = urllib.parse.urlencode(form).encode()
                all_headers.update(FORM_HEADERS)
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            data = response.read()
            self.set_cookies = [value for name, value in response.getheaders() if name.lower() == "set-cookie"]
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    cookie_value = rest.split(";", 1)[0]
                    if "Max-Age=0" in value or not cookie_value:
                        self.cookies.pop(key, None)
                    else:
                        self.cookies[key] = cookie_value
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        finally:
            connection.close()

    def get(self, path):
        return self.request("GET", path)

    def sign_in(self, user, password):
        """The sign-in form, then its hidden inputs back with the name and password."""
        status, _, page = self.get("/admin/login")
        assert status == 200, page
        return self.request("POST", "/admin/login", form={**hidden_inputs(page), "user": user, "password": password})

    def post_form(self, path, fields, page_path=None):
        """Posts `fields` with the hidden inputs of the page at `page_path` (default `path`)."""
        _, _, page = self.get(page_path or path)
        return self.request("POST", path, form={**hidden_inputs(page), **fields})

    def sign_out(self):
        """Posts the dashboard's sign-out form with its hidden inputs."""
        _, _, page = self.get("/admin/")
        form = re.search(rb'<form method="post" action="([^"]*logout[^"]*)"[^>]*>(.*?)</form>', page, re.S)
        assert form, page
        return self.request("POST", form.group(1).decode(), form=hidden_inputs(form.group(2)))
