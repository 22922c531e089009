"""Export everything kept about a user as one JSON document, and import it back.

The document (version 2) holds the memories with their history, preferences, summaries, the
base memory, every conversation with its turns and working state, the topics (their Markdown
files and the memories they hold), the recent-topics index, and the user's settings (display
name, kind and label, the voice interfaces mapped to them). A thread (a user of kind "thread")
exports the same way. Version 1 documents (memories, summaries, base memory) still import.
"""

from reverie.portability.export import FORMAT, VERSION, export_user
from reverie.portability.load import MAX_ITEMS, import_user

__all__ = ["FORMAT", "MAX_ITEMS", "VERSION", "export_user", "import_user"]
