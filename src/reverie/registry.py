"""Providers by name: one registry design for embedding and chat providers.

Built-in providers register the same way outside ones do; packages can also offer providers
through an entry-point group (the entry point's name is the provider name, its object the
factory). Entry points are read once, and each is loaded only when its name is asked for.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Hashable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from reverie.errors import ConfigError, ProviderUnavailable

T = TypeVar("T")


@functools.lru_cache(maxsize=256)
def _known_signature(factory: Callable[..., object]) -> inspect.Signature:
    return inspect.signature(factory)


def _signature_of(factory: Callable[..., object]) -> inspect.Signature:
    """``inspect.signature(factory)``, read once per factory: the chat model is built on every
    turn, and reading its signature twice cost 50 of the 63 microseconds that took."""
    if isinstance(factory, Hashable):
        return _known_signature(factory)
    return inspect.signature(factory)


def accepted_options(factory: Callable[..., object], offered: Mapping[str, Any]) -> dict[str, Any]:
    """The items of ``offered`` that ``factory``'s signature takes (all of them if it takes ``**kwargs``)."""
    try:
        parameters = _signature_of(factory).parameters
    except (TypeError, ValueError):
        return {}  # no signature to read: offer nothing rather than guess
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return dict(offered)
    return {key: value for key, value in offered.items() if key in parameters}


class Registry(Generic[T]):
    """Factories of one kind of provider, by name."""

    def __init__(
        self,
        what: str,
        group: str,
        builtins: Callable[[], None] | None,
        where: str,
        *,
        reserved: tuple[str, ...] = (),
    ) -> None:
        self.what, self.group, self.where, self.reserved = what, group, where, reserved
        # Imports the built-in provider modules, which register themselves; set by the package
        # above them (see load_builtins_with), so the module defining the registry imports none.
        self._builtins = builtins
        self._lock = threading.RLock()
        self._factories: dict[str, Callable[..., T]] = {}
        self._entry_points: dict[str, EntryPoint] = {}
        self._discovered = False

    def load_builtins_with(self, loader: Callable[[], None]) -> None:
        """Have ``loader`` import the built-in providers the first time the registry is used."""
        with self._lock:
            self._builtins = loader

    def register(self, name: str, factory: Callable[..., T]) -> None:
        """Make ``factory`` available under ``name``; a later call replaces it."""
        if not name or name != name.strip() or name in self.reserved:
            extra = f" other than {', '.join(repr(r) for r in self.reserved)}" if self.reserved else ""
            raise ConfigError(f"{self.what.capitalize()} name {name!r} must be a non-empty word{extra}")
        self._discover()  # so a built-in registering later cannot replace this factory
        with self._lock:
            self._factories[name] = factory

    def names(self) -> list[str]:
        """Every registered or installed provider name, sorted."""
        self._discover()
        with self._lock:
            return sorted(set(self._factories) | set(self._entry_points))

    def factory(self, name: str) -> Callable[..., T]:
        """The factory registered (or installed) under ``name``; ConfigError if there is none."""
        self._discover()
        with self._lock:
            factory = self._factories.get(name)
            entry_point = self._entry_points.get(name)
        if factory is not None:
            return factory
        if name in self.reserved:
            noun = self.what.removesuffix(" provider")
            raise ConfigError(f'"{name}" means no {noun} model: there is nothing to build for it')
        if entry_point is None:
            known = ", ".join([*self.reserved, *self.names()]) or "none"
            raise ConfigError(
                f"Unknown {self.what} {name!r}; known providers: {known}. Set provider under "
                f"{self.where} to one of them, or install the package that provides it"
            )
        loaded = self._load(entry_point)
        with self._lock:
            # A provider registered by hand while we loaded wins over the entry point.
            return self._factories.setdefault(name, loaded)

    def create(self, name: str, **options: Any) -> T:
        """Build the provider ``name`` with ``options`` (its keyword arguments), checked first."""
        factory = self.factory(name)
        try:
            _signature_of(factory).bind(**options)
        except TypeError as exc:
            raise ConfigError(
                f"{self.what.capitalize()} {name!r} does not accept these options "
                f"({', '.join(sorted(options)) or 'none'}): {exc}; fix the {self.where} settings"
            ) from exc
        except ValueError:
            pass  # some callables (C extensions) have no signature; let the call decide
        return factory(**options)

    def create_offering(self, name: str, offered: Mapping[str, Any]) -> T:
        """Build the provider ``name``, passing only the offered options its factory takes."""
        return self.create(name, **accepted_options(self.factory(name), offered))

    def _load(self, entry_point: EntryPoint) -> Callable[..., T]:
        try:
            loaded: object = entry_point.load()
        except (ImportError, AttributeError) as exc:
            raise ProviderUnavailable(
                f"Cannot load {self.what} {entry_point.name!r} from {entry_point.value} ({exc}); "
                "reinstall the package that provides it"
            ) from exc
        if not callable(loaded):
            raise ConfigError(
                f"Entry point {entry_point.name!r} in group {self.group} points at "
                f"{entry_point.value}, which is not callable"
            )
        factory: Callable[..., T] = loaded
        return factory

    def _discover(self) -> None:
        """Register the built-in providers and read the entry points, once per process."""
        with self._lock:
            if self._discovered:
                return
            # Set first: the built-in modules call register, which comes back here.
            self._discovered = True
            try:
                if self._builtins is not None:
                    self._builtins()
                for entry_point in entry_points(group=self.group):
                    self._entry_points.setdefault(entry_point.name, entry_point)
            except BaseException:
                self._discovered = False
                raise


__all__ = ["Registry", "accepted_options"]
