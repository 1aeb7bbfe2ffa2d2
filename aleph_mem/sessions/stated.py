"""What a person says about themselves that should stay in front of every agent: standing
preferences ("from now on use uv"), and states, goals and causes ("my knee surgery means no
running until spring", "I'm allergic to penicillin", "I'm training for the Berlin marathon").
Such a sentence shares no words with a later question it bears on ("a training plan for the
half marathon?"), so search never finds it: it is a fact to keep in hot memory.

Strict on purpose: a sentence joins hot memory at once (an agent's fact, logged, undoable,
listed in the digest), so a request ("I want you to fix the test"), a question, a passing
moment ("I'm looking at the logs now") or a statement about someone else is never one.
"""

from __future__ import annotations

import re

# the person as the subject, in the first person
STANDING_PREFERENCE = re.compile(
    r"(?:\bfrom now on\b|(?:^|[.!;:]\s*)going forward,|"
    r"\b(?:always use|never use|(?:please )?(?:don't|do not) ever|I (?:strongly )?prefer|"
    r"I do(?: not|n't) need to be told|stop (?:providing|giving|adding|saying|telling)|"
    r"I (?:really )?(?:don't|do not) like (?:it )?when you|"
    r"(?:always|never) (?:ask|tell|call|refer to|include|add|give|say)\b))",
    re.I)
STATE = re.compile(
    r"\b(?:I(?:'m| am) (?:(?:severely |mildly |very )?allergic|vegetarian|vegan|pescatarian|"
    r"pregnant|diabetic|lactose[- ]intolerant|gluten[- ]intolerant|colou?r[- ]?blind|"
    r"left[- ]handed|deaf|hard of hearing|visually impaired|dyslexic|"
    r"recovering from|(?:currently )?(?:training|saving|studying|preparing) for|"
    r"on a (?:diet|budget)|(?:not|no longer) (?:allowed|able) to)|"
    r"I (?:can't|cannot|can no longer|must not|mustn't|shouldn't) (?:eat|drink|run|lift|"
    r"drive|fly|travel|use|walk|work|afford|have|take)|"
    r"I have (?:a |an )?(?:\w+ )?(?:allergy|allergies|injury|condition|disability|diabetes|"
    r"asthma|ADHD|dyslexia|migraines?|tendonitis|arthritis)|"
    r"my (?:\w+ ){0,3}(?:surgery|injury|condition|allergy|diagnosis|doctor|physio\w*) "
    r"(?:means|says|said|requires|rules out)|"
    r"my (?:main |long[- ]term |big )?goal (?:is|this year is)|"
    r"I(?:'m| am) (?:trying|planning|aiming|hoping) to (?:lose|gain|save|learn|run|finish|"
    r"quit|cut|reduce|get|become|build|move|switch)|"
    r"(?:because|since) (?:of )?my (?:\w+ ){0,3}(?:injury|surgery|condition|allergy|budget|"
    r"schedule|back|knee|health|diet)|"
    r"\bno \w+ until (?:next |the end of )?(?:spring|summer|autumn|fall|winter|january|"
    r"february|march|april|may|june|july|august|september|october|november|december|"
    r"week|month|year)|"
    # a diagnosis, a treatment
    r"I(?:'ve| have) been diagnosed with|I(?:'m| am) (?:on|taking) (?:\w+ ){0,2}"
    r"(?:medication|meds|insulin|antidepressants|blood thinners|hrt|hormones)|"
    r"I (?:have|live with|suffer from) (?:\w+ ){0,2}(?:adhd|autism|bipolar|depression|"
    r"anxiety|epilepsy|dyslexia|crohn's|ibs|celiac|coeliac|an? eating disorder)|"
    # who they are: their family, where they live, what they are new to
    r"I(?:'m| am) (?:a |an )?single (?:mum|mom|dad|parent)|"
    r"I(?:'m| am) (?:a |an )?(?:mum|mom|dad|father|mother|parent) of|"
    r"I(?:'m| am) \w+ by trade|"
    r"I have (?:a (?:wife|husband|partner)(?: and \w+ (?:kids|children))?|"
    r"(?:two|three|four|five|\d) (?:kids|children|daughters|sons))\b|"
    r"I(?:'m| am) based in|I live in (?!the moment)|I(?:'ve| have) lived in|"
    r"I(?:'m| am) (?:very )?new to|I have no (?:\w+ )?(?:background|experience) in|"
    r"I(?:'m| am) running (?:the|a) \w+ (?:\w+ )?(?:marathon|half marathon|race|ultra)|"
    r"I(?:'m| am) from (?-i:[A-Z])|I(?:'m| am) (?:currently )?\d{2}(?: years old)?\b(?! ?%)|"
    r"my (?:company|business|startup|podcast|channel|shop) is (?:called )?(?-i:[A-Z])|"
    r"I(?:'m| am) (?:neurodivergent|neurodiverse|autistic|bipolar|sober|in recovery)|"
    r"because of my (?:adhd|autism|dyslexia|anxiety|depression|condition|disability)|"
    r"I have (?:very )?(?:limited|no) (?:\w+ )?knowledge of|"
    r"(?:is|isn't|is not) (?:a |my )?(?:strong point|strength) of mine|"
    r"I (?:smoke|vape)\b(?! (?:it )?(?:out|test))|my addiction to|I(?:'m| am) addicted to|"
    r"I have (?:a |an )?(?:recurring|reoccurring|chronic|constant) (?:\w+ ){0,2}pain)\b",
    re.I)
QUESTION = re.compile(r"\?\s*$")
# requests and passing moments: about this session, not the person
MOMENT = re.compile(r"\b(?:right now|at the moment|from now on until|currently looking|"
                    r"this session|today|this morning|for now|in this (?:file|repo|project|pr)|"
                    r"(?:can|could|would|will) you|please (?:fix|add|make|write|run|check)|"
                    r"I (?:need|want) you to|I was wondering if)\b",
                    re.I)
MAX_CHARS = 220


def standing(sentence: str) -> str:
    """``"preference"``, ``"state"`` (a state, goal, constraint or cause) or ``""``."""
    s = " ".join(sentence.split())
    if not 12 <= len(s) <= MAX_CHARS or QUESTION.search(s) or MOMENT.search(s):
        return ""
    if "`" in s or s.count("/") > 2:  # code and paths: about the work, not the person
        return ""
    if s[0] in "\"“”'‘«":  # a quotation: someone's words, not the person's fact
        return ""
    if sum(c.isupper() for c in s) > 0.6 * sum(c.isalpha() for c in s):
        return ""  # shouted: a moment's frustration
    if STATE.search(s):
        return "state"
    if STANDING_PREFERENCE.search(s):
        return "preference"
    return ""
