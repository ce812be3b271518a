"""Argument guards shared by the rule modules (programming errors, not refusals)."""


def require_non_negative(**values: int) -> None:
    """Raise TypeError/ValueError naming the first argument that is not an int >= 0."""
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an integer, got {value!r}")
        if value < 0:
            raise ValueError(f"{name} must not be negative, got {value}")


def require_non_negative_fields(obj: object, *names: str) -> None:
    """`require_non_negative` for the named attributes of ``obj``."""
    require_non_negative(**{name: getattr(obj, name) for name in names})
