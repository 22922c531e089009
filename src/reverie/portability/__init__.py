"""Export everything kept about a user as one JSON document, and import it back.

The document (version 2) holds the memories with their history, preferences, summaries, the
base memory, every conversation with its turns and working state, the topics (their Markdown
files and the memories they hold), the recent-topics index, the user's settings (display
name, kind and label, the voice interfaces mapped to them) and the user's own uploaded documents
(each file's bytes in base64; never the household's shared ones). A thread (a user of kind "thread")
exports the same way. Version 1 documents (memories, summaries, base memory) still import.

Version 2 grows by optional fields: a field that is absent reads as empty (a v2 document
written before "documents" existed imports as one without documents), so a new field is not a
new version (a Reverie older than a field imports the rest and leaves that field out); a change
that older readers would misread is.
"""

from reverie.portability.export import FORMAT, VERSION, export_user
from reverie.portability.load import MAX_ITEMS, import_user

__all__ = ["FORMAT", "MAX_ITEMS", "VERSION", "export_user", "import_user"]
