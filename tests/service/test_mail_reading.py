"""Reading a reply, part by part: format=flowed (RFC 3676), the charsets mail
clients mislabel, the one rule on a move's trailing punctuation, and the SMTP
listener's skimmer, which keeps a message's text and drops its attachments as
they arrive. The whole corpus of clients' replies is test_mail_corpus's."""

from __future__ import annotations

import base64
import random

import pytest

from notifications.mailparse import (
    Envelope,
    flowed_decode,
    mail_parse,
    message_of,
    move_line,
    move_words,
    part_text,
)
from notifications.mailstream import KEPT, TEXT_KEPT, MailSkimmer, Unreadable


def test_flowed_lines_are_joined_and_delsp_takes_the_added_space_away():
    assert flowed_decode("say a long \nline\n") == "say a long line\n"
    # delsp=yes: the space before the break was added by the client
    assert flowed_decode("https://example.org/a \nb\n", delsp=True) == "https://example.org/ab\n"
    assert flowed_decode("two words  \nhere", delsp=True) == "two words here"
    # quotes keep their marks and do not run into the reply; space-stuffing undone
    assert flowed_decode("> quoted \n> more\n reply\n") == "> quoted more\nreply\n"
    # the signature separator is not a soft break
    assert flowed_decode("pass\n-- \nAnn\n") == "pass\n-- \nAnn\n"


def _part(charset: str, payload: bytes):
    return message_of(b"Content-Type: text/plain; charset=" + charset.encode()
                      + b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + payload)


def test_windows_1252_labelled_latin_1_or_ascii_is_read_as_windows_1252():
    outlook = b"say That\x92s \x93clever\x94 \x96 nice"
    for label in ("iso-8859-1", "ISO-8859-1", "latin1", "us-ascii", "windows-1252"):
        assert part_text(_part(label, outlook)) == "say That\u2019s \u201cclever\u201d \u2013 nice"
    assert part_text(_part("us-ascii", "Grüße 🐸".encode())) == "Grüße 🐸"  # UTF-8 unlabelled
    assert part_text(_part("x-unknown", "déjà".encode())) == "déjà"


def test_a_move_loses_the_full_stop_a_phone_adds_whatever_the_game():
    for written, move in (("pass.", "pass"), ("Egg 1,0.", "Egg 1,0"), ("take blue. ", "take blue"),
                          ("place T78 front -1,0 r1!", "place T78 front -1,0 r1"),
                          ("split 0 A1 ?", "split 0 A1 ?")):
        assert move_words(written) == move


def test_the_move_line_skips_attributions_in_many_languages_and_wrapped():
    quote = "\n\n> It is your turn\n> egg 0,0\n\negg 1,0\n"
    for attribution in ("Am 03.06.2025 um 09:12 schrieb marram <m@x.example>:",
                        "Op di 3 jun 2025 om 09:12 schreef marram <m@x.example>:",
                        "Il giorno mar 3 giu 2025 alle ore 09:12 marram <m@x.example> ha scritto:",
                        "On Tue, Jun 3, 2025 at 9:12 AM marram <\nm@x.example> wrote:",
                        "Le mar. 3 juin 2025 à 09:12, marram <m@x.example> a\nécrit :"):
        assert move_line(attribution + quote) == "egg 1,0", attribution
    assert move_line("egg 1,0\n\n-----Original Message-----\nFrom: x\n") == "egg 1,0"
    assert move_line("-----Original Message-----\negg 0,0\n") == ""


def test_automatic_mail_is_known_by_every_sign():
    base = (b"From: ann@example.org\r\nTo: move+1.0.0.x@marram.localhost\r\n"
            b"Subject: Re: your move\r\nMessage-ID: <a@b>\r\n")
    human = mail_parse(base + b"\r\negg 1,0\r\n", Envelope("ann@example.org"))
    assert not human.automatic and human.text.startswith("egg 1,0")
    for extra in (b"Auto-Submitted: auto-replied\r\n", b"X-Autoreply: yes\r\n",
                  b"X-Autorespond: on\r\n", b"X-Auto-Response-Suppress: All\r\n",
                  b"Precedence: bulk\r\n", b"Precedence: list\r\n", b"List-Id: <x.lists>\r\n",
                  b"Return-Path: <>\r\n",
                  b"Content-Type: multipart/report; report-type=delivery-status; b=x\r\n"):
        assert mail_parse(base + extra + b"\r\nbody\r\n", Envelope("ann@example.org")).automatic, \
            extra
    assert mail_parse(base + b"\r\nI am away\r\n", Envelope("")).automatic_reason == \
        "the envelope's sender is empty (MAIL FROM:<>)"
    robot = base.replace(b"From: ann@example.org",
                         b"From: MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@example.org")
    assert mail_parse(robot + b"\r\nx\r\n").automatic
    assert mail_parse(base.replace(b"Re: your move", b"Autoreply: away") + b"\r\nx\r\n").automatic


def _lines(data: bytes):
    for line in data.split(b"\r\n"):
        yield line + b"\r\n"


def test_the_skimmer_keeps_the_text_and_drops_a_30_mb_photo_as_it_passes():
    photo = base64.encodebytes(random.Random(1).randbytes(22_000_000)).replace(b"\n", b"\r\n")
    head = (b"From: ann@example.org\r\nTo: move+1.0.0.x@marram.localhost\r\nMessage-ID: <p@x>\r\n"
            b'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n'
            b"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nsay look!\r\n\r\n"
            b'--b1\r\nContent-Type: image/jpeg\r\nContent-Disposition: attachment; filename="a.jpg"'
            b"\r\nContent-Transfer-Encoding: base64\r\n\r\n")
    skimmer = MailSkimmer()
    biggest = 0
    for line in _lines(head + photo + b"--b1--"):
        skimmer.feed(line)
        biggest = max(biggest, skimmer._kept_size)
    kept = skimmer.close()
    assert skimmer.size > 30_000_000 and biggest < 2000 and len(kept) < 2000
    parsed = mail_parse(kept)
    assert move_line(parsed.text) == "say look!" and parsed.message_id == "<p@x>"
    assert TEXT_KEPT <= KEPT


def test_the_skimmer_caps_a_text_part_and_refuses_a_structure_nested_too_deep():
    skimmer = MailSkimmer()
    for line in _lines(b"Content-Type: text/plain\r\n\r\n" + b"x" * 998 * 2000):
        skimmer.feed(line)
    assert len(skimmer.close()) <= TEXT_KEPT + 100
    deep = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
                    for i in range(100))
    skimmer = MailSkimmer()
    for line in _lines(deep):
        skimmer.feed(line)
    with pytest.raises(Unreadable):
        skimmer.close()
