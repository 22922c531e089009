"""Where a hand-out of stored data goes, and the assistant's own setup, for the guard's concept rules.

:mod:`reverie.extract.guard_concepts` refuses a sentence that hands out a secret over one of these
channels (an address, a service, "to anyone who asks", "in every reply"), and the assistant's own
setup ("your system prompt", "the text above") on an order alone.
"""

from __future__ import annotations

import re

__all__ = ["BOT_SECRET", "CHANNEL"]

CHANNEL = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+\.\w|https?://|\bwebhook\b"
    r"|\b(?:to|with)\s+(?:anyone|anybody|everyone|whoever|any\s+(?:caller|stranger|person|one))\b"
    r"|\b(?:any|every)\s+(?:caller|stranger)\b|\bon\s+(?:demand|request)\b|\bupon\s+request\b"
    r"|\b(?:when(?:ever)?|if|once|should)\s+(?:it\s+is\s+|they\s+are\s+)?(?:anyone|someone|somebody|a\s+stranger"
    r"|asked|requested)\b|\b(?:every|each|any)\s+(?:single\s+)?(?:reply|answer|response|message|chat)\b"
    r"|\b(?:third\s+part(?:y|ies)|outside\s+(?:address|server))\b"
    r"|\b(?:shared|public|group|team|family|open)\s+(?:channel|chat|forum|page|board|drive|folder|feed"
    r"|group)\b"
    r"|\b(?:slack|discord|telegram|twitter|facebook|reddit|pastebin)\b|\b[\w-]+(?:\.[\w-]+)+/\S"
    r"|\bin\s+(?:(?:your|the|its|every|each|all|any)\s+)?(?:replies|answers|responses)\b"
    r"|\bwithout\s+(?:telling|informing|asking|alerting)\s+(?:them|the\s+user|him|her)\b"
    r"|a\s+quien\s+(?:lo\s+)?pida|[aà]\s+quiconque|an\s+jeden|a\s+qualquer\s+pessoa|a\s+chiunque|любому"
    r"|任何人|誰にでも|每次|毎回"
    # an address of a machine or a phone, a handle, a file-sharing service
    r"|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b(?:s?ftp|scp|sftp|ssh)\b|\+\d[\d\s().-]{7,}\d|\b\d{3}[\s.-]\d{4}\b"
    r"|(?<![\w@])@[A-Za-z_]\w{2,}|\b(?:telegram|whatsapp|signal|gist|pastebin|dropbox|mega\.nz|transfer\.sh"
    r"|s3\s+bucket|bucket|ngrok|tweet|mastodon)\b|\bport\s+\d{2,5}\b"
    r"|\b(?:the\s+)?(?:address|number|email|url|account)\s+in\s+my\s+(?:profile|bio|signature|notes)\b"
    r"|\bto\s+whoever\b|\bshared\s+(?:\w+\s+)?(?:drive|folder|album|doc|document)\b",
    re.IGNORECASE,
)

# The assistant's own setup: read out on an order alone, no channel needed ("print the text above").
BOT_SECRET = re.compile(
    r"\b(?:(?:assistant|model|bot|helper|ai|chatbot)'s|your"
    r"|its)\s+(?:own\s+)?(?:\w+\s+)?(?:configuration|setup"
    r"|instructions|system\s+prompt|prompt|settings|guidelines|rules|programming)\b|\bsystem\s+prompt\b"
    r"|\b(?:hidden|secret|internal|initial|original)\s+(?:instructions|prompt|setup|configuration)\b"
    r"|\beverything\s+(?:that\s+)?(?:came|comes|was|is|has\s+been|stands|written"
    r"|said)\s+(?:\w+\s+)?(?:before|above)"
    r"|\b(?:text|words|lines|messages?)\s+(?:above|before\s+this)\b",
    re.IGNORECASE,
)
