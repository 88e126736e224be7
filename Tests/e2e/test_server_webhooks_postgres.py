"""Issue 40's webhooks with two servers on one PostgreSQL: they share the outbox (claims with
FOR UPDATE SKIP LOCKED and a lease), one is killed with SIGKILL while its deliveries are held
open by the receiver, and every committed event still arrives (the other server sends the
killed one's claims once their lease ends), never twice at once."""
import re

from processutil import wait_until
from serverutil import server_run
from test_server_postgres import PostgresServer, code_path, database, postgres  # noqa: F401 (fixtures)
from test_server_webhooks import check_in
from webhookutil import WebhookReceiver
from standardwebhooks.webhooks import Webhook


def test_two_servers_share_the_outbox_and_a_killed_ones_events_arrive(tmp_path, secret, database):  # noqa: F811
    receiver = WebhookReceiver("whsec_" + "A" * 32, hold=2.0)
    servers = []
    try:
        added = server_run("webhook", "add", "crm", receiver.url, "--database", database)
        assert added.returncode == 0, added.stderr
        receiver.webhook = Webhook(re.search(r"(whsec_\S+)", added.stdout).group(1))
        servers = [PostgresServer(tmp_path / f"server-{index}", secret, database) for index in range(2)]
        for server in servers:
            server.start(wait=False)
        for server in servers:
            server.wait_ready()
        for server in servers:
            check_in(server, code_path(secret, "HALL-1", server.port), 30)
        # Deliveries are under way (each held 2 s by the receiver): one server dies mid-delivery.
        receiver.wait_for(lambda ds: len(ds) >= 1, 30, "the first delivery")
        servers[0].kill()
        receiver.hold = 0
        receiver.wait_for(lambda ds: len({d.id for d in ds if d.verified and d.status == 200}) >= 60, 120, "every event")
        successes = receiver.successes()
        assert len({d.id for d in successes}) == 60 and all(d.verified for d in receiver.deliveries)
        # The killed server's claims (seen by the receiver, their answers never read) are sent
        # again by the other once their lease ends: then the outbox is empty.
        wait_until(lambda: "0 pending, 60 delivered" in server_run("webhook", "list", "--database", database).stdout,
                   timeout=120, interval=1, message="the outbox delivered")
        # At least once: an event the killed server had sent may come again, but only after its
        # lease (30 s), never twice at once.
        by_id = {}
        for delivery in receiver.successes():
            by_id.setdefault(delivery.id, []).append(delivery.at)
        for id, times in by_id.items():
            assert len(times) == 1 or max(times) - min(times) >= 20, (id, times)
    finally:
        for server in servers:
            server.stop()
        receiver.close()
