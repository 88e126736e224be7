"""Reading the PNGs qrcheckin writes, independently of it (and of libpng): chunks with their
CRCs checked, rows unfiltered, pixels, and the QR modules they draw. The one PNG reader of the
e2e tests (encode's output, the daemon's current.png)."""
import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"


def png_chunks(data):
    """Yields (type, body) for each chunk, checking the signature, lengths and CRCs."""
    assert data.startswith(PNG_SIGNATURE), f"not a PNG ({len(data)} bytes)"
    offset = len(PNG_SIGNATURE)
    while offset < len(data):
        assert offset + 12 <= len(data), "truncated chunk header"
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        assert len(body) == length, f"truncated {kind!r} chunk"
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind!r}"
        yield kind.decode("ascii"), body
        offset += 12 + length


def bilevel_rows(data):
    """(width, height, rows, dark): a complete, non-interlaced 1-bit grey or palette PNG's rows,
    unfiltered (bytes, 8 pixels each, the first in the high bit); `dark[bit]` says whether a
    pixel of that value is dark. Checks IHDR first, IEND last and the inflated size."""
    chunks = list(png_chunks(data))
    kinds = [kind for kind, _ in chunks]
    assert kinds[0] == "IHDR" and chunks[-1] == ("IEND", b""), kinds
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 1 and colour in (0, 3) and interlace == 0, ("IHDR: 1-bit, not interlaced", depth, colour, interlace)
    if colour == 3:
        palette = next(body for kind, body in chunks if kind == "PLTE")
        dark = [sum(palette[i * 3:i * 3 + 3]) < 384 for i in range(2)]
    else:
        dark = [True, False]  # grey 0 = black
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == "IDAT"))
    stride = (width + 7) // 8
    assert len(raw) == height * (stride + 1), "IDAT inflates to the wrong size"
    rows, previous = [], bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filters with 1 byte per "pixel" for bit depths below 8
            left, up, corner = (line[i - 1] if i else 0), previous[i], (previous[i - 1] if i else 0)
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
            else:
                assert kind == 0, f"filter type {kind}"
        previous = bytes(line)
        rows.append(previous)
    return width, height, rows, dark


def read_png(data):
    """A 1-bit PNG as rows of booleans (True = dark)."""
    width, _, rows, dark = bilevel_rows(data)
    return [[dark[(row[x >> 3] >> (7 - (x & 7))) & 1] for x in range(width)] for row in rows]


def strip_quiet_zone(modules, margin):
    """Checks a `margin`-wide light border around a square grid and returns the inside."""
    span = len(modules)
    assert all(len(row) == span for row in modules), "grid is not square"
    for y in range(span):
        for x in range(span):
            if min(x, y) < margin or max(x, y) >= span - margin:
                assert not modules[y][x], f"quiet zone module {y},{x} is dark"
    return [row[margin:span - margin] for row in modules[margin:span - margin]]


def png_matrix(data, scale=8, margin=4):
    """The module matrix (True = dark) of a QR PNG drawn at `scale` with a `margin`-module quiet
    zone. Checks that every module is a uniform scale x scale block and the quiet zone light."""
    pixels = read_png(data)
    width = len(pixels[0])
    assert len(pixels) == width and width % scale == 0
    span = width // scale
    modules = []
    for my in range(span):
        row = []
        for mx in range(span):
            block = {pixels[my * scale + dy][mx * scale + dx] for dy in range(scale) for dx in range(scale)}
            assert len(block) == 1, f"module {my},{mx} is not a uniform block"
            row.append(block.pop())
        modules.append(row)
    return strip_quiet_zone(modules, margin)


def sampled_matrix(data, scale=8, margin=4):
    """The module matrix (True = dark) read from each module's middle pixel only: png_matrix's
    answer for a well-drawn PNG, at a fraction of its cost, for tests that read thousands."""
    width, _, rows, dark = bilevel_rows(data)
    size = width // scale - 2 * margin
    pixel = lambda x, y: dark[(rows[y][x >> 3] >> (7 - (x & 7))) & 1]
    return tuple(tuple(pixel((margin + x) * scale + scale // 2, (margin + y) * scale + scale // 2) for x in range(size))
                 for y in range(size))
