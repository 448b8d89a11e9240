"""The static page's PNG icons (web/icon-192.png, icon-512.png), drawn as
web/icon.svg draws them: an 8x8 board with a red and a white piece. Run once when the
icon changes; the PNGs are committed (no image library needed: zlib and struct)."""
import struct
import sys
import zlib

LIGHT, DARK = (0xE8, 0xD0, 0xAA), (0x8B, 0x5A, 0x2B)
RED, WHITE, RIM_W, RIM_R = (0xC6, 0x28, 0x28), (0xF5, 0xF5, 0xF5), (0x22, 0x22, 0x22), (0xFF, 0xFF, 0xFF)


def pixel(x, y):
    """The colour at (x, y) in board units (0..8)."""
    for cx, cy, fill, rim in ((4.5, 4.5, WHITE, RIM_W), (3.5, 3.5, RED, RIM_R)):
        d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
        if d <= 1.7:
            return rim if d > 1.6 else fill
    return DARK if (int(x) + int(y)) % 2 == 1 else LIGHT


def png(size):
    rows = b"".join(
        b"\0" + bytes(c for x in range(size) for c in pixel((x + 0.5) * 8 / size, (y + 0.5) * 8 / size))
        for y in range(size)
    )

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "web/static"
    for size in (192, 512):
        with open(f"{out}/icon-{size}.png", "wb") as f:
            f.write(png(size))
