"""A minimal FastCGI client, to speak to the backend's socket directly (as
nginx does), bypassing nginx's own checks."""
import socket
import struct

BEGIN_REQUEST, END_REQUEST, PARAMS, STDIN, STDOUT = 1, 3, 4, 5, 6
RESPONDER = 1


def record(kind, content=b"", request_id=1):
    padding = (8 - len(content) % 8) % 8
    return struct.pack("!BBHHBx", 1, kind, request_id, len(content), padding) + content + b"\0" * padding


def name_value(name: bytes, value: bytes) -> bytes:
    def length(n):
        return struct.pack("!B", n) if n < 128 else struct.pack("!I", n | 0x80000000)
    return length(len(name)) + length(len(value)) + name + value


def request(address, method, uri, body=b"", headers=None):
    """Sends one request to `address`, a Unix socket's path or a
    ("127.0.0.1", port) pair; returns (status, headers dict, body bytes).
    Raises ConnectionError when the connection closes before the request's
    end."""
    params = {
        "REQUEST_METHOD": method, "REQUEST_URI": uri, "DOCUMENT_URI": uri.split("?")[0],
        "QUERY_STRING": uri.split("?", 1)[1] if "?" in uri else "",
        "CONTENT_LENGTH": str(len(body)), "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
    }
    for name, value in (headers or {}).items():
        if name.lower() == "content-type":
            params["CONTENT_TYPE"] = value
        else:
            params["HTTP_" + name.upper().replace("-", "_")] = value
    encoded = b"".join(name_value(k.encode(), v.encode()) for k, v in params.items())
    message = record(BEGIN_REQUEST, struct.pack("!HB5x", RESPONDER, 0))
    for start in range(0, len(encoded), 65535):
        message += record(PARAMS, encoded[start:start + 65535])
    message += record(PARAMS)
    for start in range(0, len(body), 65535):
        message += record(STDIN, body[start:start + 65535])
    message += record(STDIN)
    family = socket.AF_INET if isinstance(address, tuple) else socket.AF_UNIX
    with socket.socket(family, socket.SOCK_STREAM) as connection:
        connection.settimeout(10)
        connection.connect(address if isinstance(address, tuple) else str(address))
        connection.sendall(message)
        output = b""
        buffer = b""
        ended = False
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            buffer += chunk
            while len(buffer) >= 8:
                _, kind, _, length, padding = struct.unpack("!BBHHBx", buffer[:8])
                if len(buffer) < 8 + length + padding:
                    break
                content = buffer[8:8 + length]
                buffer = buffer[8 + length + padding:]
                if kind == STDOUT:
                    output += content
                elif kind == END_REQUEST:
                    ended = True
            if ended:
                break
    if not ended:
        # A connection closed before the request ended is no answer, never a 200.
        raise ConnectionError(f"{address} closed the connection without ending the request "
                              f"({len(output)} bytes of output)")
    head, _, payload = output.partition(b"\r\n\r\n")
    response_headers = {}
    for line in head.decode("latin-1").split("\r\n"):
        name, _, value = line.partition(":")
        response_headers.setdefault(name.strip().lower(), value.strip())
    status = int(response_headers.get("status", "200").split()[0])
    return status, response_headers, payload
