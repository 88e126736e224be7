"""README's commands, section by section, as the tests run them (test_readme.py)."""
import re

from conftest import ROOT


def sections():
    """{heading: [command, ...]} for every `## heading` whose ```sh blocks show commands; a
    command is one line, or lines joined by a trailing backslash."""
    found = {}
    heading = None
    for block in re.split(r"^(## .*)$", (ROOT / "README.md").read_text(), flags=re.M):
        if block.startswith("## "):
            heading = block[3:].strip()
            continue
        for code in re.findall(r"^```sh\n(.*?)^```", block, re.M | re.S):
            commands = []
            for line in code.replace("\\\n", " ").splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    commands.append(line.strip())
            found.setdefault(heading, []).extend(commands)
    return found


def commands(heading):
    """The commands README shows under `heading` (which must exist and show some)."""
    listed = sections()
    assert heading in listed, f"README has no commands under '## {heading}': {list(listed)}"
    return listed[heading]
