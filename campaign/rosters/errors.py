"""The one exception the roster parsers raise."""

ACCEPTED = (
    "the Warhammer 40,000 app's text export, New Recruit's text or JSON export, "
    "or a BattleScribe .ros/.rosz file"
)
"""The formats the importer reads, as the refusal for any other file names them."""


class RosterError(Exception):
    """A file could not be read as an army list; ``message`` is one line shown to the player."""

    def __init__(self, message: str) -> None:
        message = " ".join(message.split())
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def not_a_roster(subject: str = "The file") -> RosterError:
    """The refusal for a file of some other kind, naming the formats that are accepted."""
    return RosterError(f"{subject} isn't an army list it can read. Use {ACCEPTED}.")
