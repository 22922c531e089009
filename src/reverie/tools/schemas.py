"""OpenAI-style function schemas, the shape every memory function is published in."""

from __future__ import annotations

from typing import Any


def function_schema(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    """``{"type": "function", "function": {...}}`` with a closed JSON-schema object of parameters."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
        },
    }


__all__ = ["function_schema"]
