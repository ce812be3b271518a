"""The static files' storage in production: whitenoise's (hashed names, compressed copies),
with each file's address worked out once a process.

Every page links its style sheets and scripts (the admin's a dozen), and Django looks
each one up in the manifest again at every look (a look-up, an unquote and a join: tens
of microseconds each, a sixth of what a small page cost to render). The manifest is read
when the process starts and doesn't change while it runs (`collectstatic` runs before the
server starts, see Deploying), so the address of a name doesn't either."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFiles(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._addresses: dict[str, str] = {}

    def url(self, name, force: bool = False) -> str:
        if force:
            return super().url(name, force)
        try:
            return self._addresses[name]
        except KeyError:
            address = self._addresses[name] = super().url(name)
            return address
