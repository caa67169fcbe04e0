"""Peer for `npm run bench:decode`: what `loggerhead decode` does, in Python, for timing beside it.

    python3 decode_peer.py DBC LOG jsonl|csv LIMIT > out

Reads the candump -L log with python-can, decodes each frame with cantools when it is installed,
else with canmatrix (Debian packages python3-can and python3-canmatrix; cantools is not packaged),
and writes one JSON line or CSV row per decoded frame. The first line of stderr names the decoder.
"""
import csv
import json
import sys

import can

dbc_path, log_path, fmt, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

try:
    import cantools

    db = cantools.database.load_file(dbc_path, strict=False)
    by_id = {(m.frame_id, m.is_extended_frame): m for m in db.messages}

    def decode(frame_id, ext, data):
        m = by_id.get((frame_id, ext))
        if m is None:
            return None
        return m.name, m.decode(bytes(data), decode_choices=False, allow_truncated=True)

    name = f"cantools {cantools.__version__}"
except ImportError:
    import canmatrix
    import canmatrix.formats

    db = canmatrix.formats.loadp_flat(dbc_path)
    by_id = {}
    for f in db.frames:
        by_id[(f.arbitration_id.id, f.arbitration_id.extended)] = f

    def decode(frame_id, ext, data):
        f = by_id.get((frame_id, ext))
        if f is None:
            return None
        d = f.decode(bytes(data))
        return f.name, {k: float(v.phys_value) for k, v in d.items()}

    name = "python-can + canmatrix (cantools not installed)"

print(name, file=sys.stderr)
out = sys.stdout
writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
n = 0
for msg in can.CanutilsLogReader(log_path):
    if n >= limit:
        break
    n += 1
    if msg.is_remote_frame or msg.is_error_frame:
        continue
    r = decode(msg.arbitration_id, msg.is_extended_id, msg.data)
    if r is None:
        continue
    message, signals = r
    if writer:
        writer.writerow([f"{msg.timestamp:.6f}", msg.channel, msg.arbitration_id, msg.is_extended_id, message, *signals.values()])
    else:
        out.write(
            json.dumps(
                {"ts": round(msg.timestamp, 6), "channel": msg.channel, "id": msg.arbitration_id, "ext": msg.is_extended_id, "message": message, "signals": signals}
            )
        )
        out.write("\n")
