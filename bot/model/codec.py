"""The one codec of the typed model: pydantic ``TypeAdapter`` per type, turning a stored JSON document (a dict
or its JSON text) into a typed value and back, and a validation failure into the type's own ``ValueError``."""

from __future__ import annotations

from typing import Any, TypeVar, cast

from pydantic import TypeAdapter, ValidationError

T = TypeVar("T")

JsonObject = dict[str, Any]
"""A JSON object as the stores keep it."""


_ADAPTERS: dict[type[Any], TypeAdapter[Any]] = {}


def adapter(cls: type[T]) -> TypeAdapter[T]:
    """Return the pydantic adapter of a model type (built once per type: building one compiles its schema)."""
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return cast(TypeAdapter[T], found)


def describe(error: ValidationError) -> str:
    """Return a short one-line account of a validation error: each wrong field's place and problem."""
    parts = []
    for item in error.errors(include_url=False)[:5]:
        where = ""
        for part in item["loc"]:
            where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
        parts.append(f"{where or 'record'}: {item['msg']}"[:200])
    return "; ".join(parts)


def load(cls: type[T], data: object, error: type[ValueError], what: str = "") -> T:
    """Return the value of ``cls`` read from a JSON-compatible ``data``; ``what`` names it in errors (default: the
    class name).

    Raises: ``error`` (a ValueError subclass) saying which field is wrong and how."""
    try:
        return adapter(cls).validate_python(data)
    except ValidationError as failure:
        raise error(f"malformed {what or cls.__name__}: {describe(failure)}") from None


def load_json(cls: type[T], text: str | bytes, error: type[ValueError]) -> T:
    """Return the value of ``cls`` read from JSON text. Raises: ``error`` when it is malformed."""
    try:
        return adapter(cls).validate_json(text)
    except ValidationError as failure:
        raise error(f"malformed {cls.__name__}: {describe(failure)}") from None


def dump(value: object) -> JsonObject:
    """Return the JSON-compatible dict of a model value (the stores' shape)."""
    result: JsonObject = adapter(type(value)).dump_python(value, mode="json")
    return result


def dump_any(value: object) -> Any:
    """Return the JSON-compatible form of a model value that is not written as an object (e.g. a list)."""
    return adapter(type(value)).dump_python(value, mode="json")


def dump_json(value: object) -> str:
    """Return the JSON text of a model value."""
    return adapter(type(value)).dump_json(value).decode()
