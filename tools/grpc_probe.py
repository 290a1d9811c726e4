"""Probe a gRPC server the way a generic tool does: server reflection and health checking.

    python tools/grpc_probe.py HOST:PORT [--json] [--timeout SECONDS]

Nothing about the server is known in advance: no .proto file, no generated
code for its services. The probe asks the server's reflection service which
services it has, loads their descriptors into a fresh ``DescriptorPool``,
prints every method (streaming or not, request and response types) and the
message types they use, field by field. Then it calls
``grpc.health.v1.Health/Check`` for the whole server ("") and for each
service, with request and response classes built from the descriptors it
fetched. Pointed at a referee (``arena serve`` prints its address), it shows
``bideuchre.v1.Arena/Play`` and SERVING.

Exit status: 0 when the server as a whole reports SERVING, 1 when it reports
anything else, 2 when the server cannot be reached or has no reflection.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import grpc
from google.protobuf import descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

HEALTH_SERVICE = "grpc.health.v1.Health"


class ProbeError(Exception):
    """The server cannot be probed; the message says why (one line)."""


def _type_name(field: FieldDescriptor) -> str:
    if field.message_type is not None:
        return field.message_type.full_name
    if field.enum_type is not None:
        return field.enum_type.full_name
    names = {v: k for k, v in vars(FieldDescriptor).items() if k.startswith("TYPE_")}
    return names[field.type].removeprefix("TYPE_").lower()


def _describe_message(message: Descriptor) -> list[dict[str, Any]]:
    fields = []
    for field in message.fields:
        fields.append(
            {
                "name": field.name,
                "number": field.number,
                "type": _type_name(field),
                "repeated": field.is_repeated,
                "oneof": field.containing_oneof.name if field.containing_oneof is not None else None,
            }
        )
    return fields


def _messages_used(roots: list[Descriptor]) -> dict[str, list[dict[str, Any]]]:
    """Every message type reachable from ``roots`` through fields, by full name."""
    seen: dict[str, list[dict[str, Any]]] = {}
    todo = list(roots)
    while todo:
        message = todo.pop()
        if message.full_name in seen:
            continue
        seen[message.full_name] = _describe_message(message)
        todo.extend(f.message_type for f in message.fields if f.message_type is not None)
    return dict(sorted(seen.items()))


def _health(channel: grpc.Channel, pool: descriptor_pool.DescriptorPool, service: str, timeout: float) -> str:
    """The status name Health/Check answers for ``service``, from descriptors fetched by reflection."""
    check = pool.FindServiceByName(HEALTH_SERVICE).FindMethodByName("Check")
    request_class = message_factory.GetMessageClass(check.input_type)
    response_class = message_factory.GetMessageClass(check.output_type)
    call = channel.unary_unary(
        f"/{HEALTH_SERVICE}/Check",
        request_serializer=request_class.SerializeToString,
        response_deserializer=response_class.FromString,
    )
    try:
        response = call(request_class(service=service), timeout=timeout)
    except grpc.RpcError as exc:
        return exc.code().name  # NOT_FOUND: the health service does not know this service
    status = response_class.DESCRIPTOR.fields_by_name["status"].enum_type
    assert status is not None  # the health response's status is an enum field
    return status.values_by_number[response.status].name


def probe(address: str, timeout: float = 5.0) -> dict[str, Any]:
    """Services, methods, message types and health of the server at ``address``."""
    with grpc.insecure_channel(address) as channel:
        try:
            grpc.channel_ready_future(channel).result(timeout=timeout)
        except grpc.FutureTimeoutError:
            raise ProbeError(f"no gRPC server answers at {address} within {timeout:g} s") from None
        database = ProtoReflectionDescriptorDatabase(channel)
        pool = descriptor_pool.DescriptorPool(database)
        try:
            names = sorted(database.get_services())
        except grpc.RpcError as exc:
            raise ProbeError(f"the server at {address} has no reflection service ({exc.code().name})") from None
        services = {}
        roots = []
        for name in names:
            service = pool.FindServiceByName(name)
            methods = []
            for method in service.methods:
                methods.append(
                    {
                        "name": method.name,
                        "client_streaming": method.client_streaming,
                        "server_streaming": method.server_streaming,
                        "input": method.input_type.full_name,
                        "output": method.output_type.full_name,
                    }
                )
                roots += [method.input_type, method.output_type]
            services[name] = {"file": service.file.name, "methods": methods}
        if HEALTH_SERVICE not in services:
            raise ProbeError(f"the server at {address} has no health service ({HEALTH_SERVICE})")
        health = {service: _health(channel, pool, service, timeout) for service in ["", *names]}
        return {"address": address, "services": services, "messages": _messages_used(roots), "health": health}


def _print_text(report: dict[str, Any]) -> None:
    print(f"server {report['address']}")
    for name, service in report["services"].items():
        print(f"service {name} (file {service['file']})")
        for m in service["methods"]:
            stream_in = "stream " if m["client_streaming"] else ""
            stream_out = "stream " if m["server_streaming"] else ""
            print(f"  rpc {m['name']}({stream_in}{m['input']}) returns ({stream_out}{m['output']})")
    print("messages")
    for name, fields in report["messages"].items():
        print(f"  {name}")
        for f in fields:
            label = "repeated " if f["repeated"] else ""
            oneof = f"  (oneof {f['oneof']})" if f["oneof"] else ""
            print(f"    {label}{f['type']} {f['name']} = {f['number']}{oneof}")
    print("health")
    for service, status in report["health"].items():
        note = " (health checking does not track this service)" if status == "NOT_FOUND" else ""
        print(f"  {service or '(the server)'}: {status}{note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="grpc_probe", description="List a gRPC server's services through reflection and check its health."
    )
    parser.add_argument("address", help="the server, HOST:PORT")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for each answer (default 5)")
    args = parser.parse_args(argv)
    try:
        report = probe(args.address, args.timeout)
    except ProbeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print_text(report)
    return 0 if report["health"][""] == "SERVING" else 1


if __name__ == "__main__":
    sys.exit(main())
