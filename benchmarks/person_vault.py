"""A generated vault in a person's style, with planted problems and near-miss controls.

About 300 notes a person wrote over a year in Obsidian: projects (each with its own
`Overview.md`), people, meetings, recipes, runbooks, travel, reading, daily notes, templates,
maps of content; tables, callouts, aliases, embeds, Markdown and wikilinks. Every planted
problem has a control beside it that differs in one fact or one folder, so a pass that acts
on the words and not on the facts is caught.

`build(root)` writes the files (as a person would: straight to disk, file times spread over
the past year) and returns a `Truth`: for each pass, the paths it should act on (`planted`)
and the paths it must leave alone (`controls`), plus the broken links and the fixes that
lint should name.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from dataclasses import dataclass, field
from pathlib import Path

DAY = 86400


@dataclass
class Truth:
    planted: dict[str, set[str]] = field(default_factory=dict)
    controls: dict[str, set[str]] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # path -> link text that is broken
    fixes: dict[str, str] = field(default_factory=dict)  # path -> the target lint should name

    def plant(self, pass_name: str, *paths: str) -> None:
        self.planted.setdefault(pass_name, set()).update(paths)

    def control(self, pass_name: str, *paths: str) -> None:
        self.controls.setdefault(pass_name, set()).update(paths)


PEOPLE = [("Priya Raman", "Priya", "platform lead", "Northwind"),
          ("Tomás Ortega", "Tomás", "designer", "Fieldstone"),
          ("Mei Lin", "Mei", "data engineer", "Northwind"),
          ("Jonas Weber", "Jonas", "SRE", "Northwind"),
          ("Amara Okafor", "Amara", "product manager", "Brightline"),
          ("Lukas Novak", "Lukas", "backend engineer", "Northwind"),
          ("Sofia Rossi", "Sofia", "my sister", "Hollis Clinic"),
          ("Daniel Kim", "Dan", "climbing partner", "Vertex Gym"),
          ("Hana Sato", "Hana", "mentor", "Brightline"),
          ("Oliver Brandt", "Ollie", "landlord", "Brandt Lettings"),
          ("Grace Mensah", "Grace", "accountant", "Mensah & Co"),
          ("Rafael Duarte", "Rafa", "friend from university", "Porto Labs"),
          ("Ingrid Holm", "Ingrid", "security engineer", "Northwind"),
          ("Samir Haddad", "Samir", "recruiter", "TalentBridge"),
          ("Elena Petrova", "Elena", "cello teacher", "City Conservatory"),
          ("Kofi Asante", "Kofi", "neighbour", "Elm Street"),
          ("Yuki Tanaka", "Yuki", "ML researcher", "Brightline"),
          ("Marta Silva", "Marta", "tax adviser", "Mensah & Co"),
          ("Noah Fischer", "Noah", "running club captain", "Riverside Runners"),
          ("Chloe Martin", "Chloe", "frontend engineer", "Northwind")]

PROJECTS = [("Heron", "search service rewrite", "Priya Raman", "Postgres 16", "2025-09-30"),
            ("Atlas", "data warehouse migration", "Mei Lin", "BigQuery", "2025-11-15"),
            ("Kestrel", "mobile checkout", "Amara Okafor", "React Native", "2026-01-31"),
            ("Lumen", "observability stack", "Jonas Weber", "Grafana", "2025-08-01"),
            ("Orchard", "garden shed build", "Kofi Asante", "cedar boards", "2025-06-30"),
            ("Quill", "novel draft", "Hana Sato", "Scrivener", "2026-03-01")]

RECIPES = [  # (title, ingredients, method)
    ("Sourdough", "500 g flour, 350 g water, 100 g starter, 10 g salt",
     "bake 45 min at 230 C"),
    ("Pizza dough", "1000 g flour, 650 g water, 25 g salt, 2 g yeast",
     "rest 24 h in the fridge"),
    ("Dal tadka", "250 g toor dal, 1 onion, 2 tomatoes, 1 tsp cumin",
     "simmer 30 min"),
    ("Shakshuka", "6 eggs, 800 g tomatoes, 2 peppers, 1 tsp paprika",
     "bake 10 min at 190 C"),
    ("Banana bread", "3 bananas, 250 g flour, 100 g butter, 150 g sugar",
     "bake 60 min at 175 C"),
    ("Miso ramen", "2 tbsp white miso, 1 l stock, 200 g noodles",
     "simmer 8 min"),
    ("Granola", "400 g oats, 120 ml maple syrup, 100 g almonds",
     "bake 25 min at 160 C"),
    ("Pho", "2 kg beef bones, 1 star anise, 3 l water",
     "simmer 6 h"),
    ("Risotto", "320 g arborio rice, 1.2 l stock, 60 g parmesan",
     "stir 18 min"),
    ("Pancakes", "200 g flour, 300 ml milk, 2 eggs, 1 tbsp sugar",
     "fry 2 min a side"),
    ("Chili", "500 g beans, 400 g tomatoes, 2 tsp chili powder",
     "simmer 90 min"),
    ("Focaccia", "500 g flour, 400 g water, 12 g salt, 60 ml olive oil",
     "bake 25 min at 220 C"),
]

RUNBOOKS = [("Postgres failover", "db-01", "db-02", "5432"),
            ("Redis failover", "cache-01", "cache-02", "6379"),
            ("Search cluster restart", "es-01", "es-02", "9200"),
            ("Kafka broker replacement", "kafka-03", "kafka-04", "9092"),
            ("VPN gateway rotation", "vpn-a", "vpn-b", "1194"),
            ("Backup restore drill", "backup-01", "restore-01", "873"),
            ("DNS cutover", "ns1", "ns2", "53"),
            ("Certificate renewal", "edge-01", "edge-02", "443")]

TRIPS = [("Lisbon 2025", "Lisbon", "2025-04-11", "TP 1331", "Hotel Alfama"),
         ("Kyoto 2024", "Kyoto", "2024-10-02", "NH 204", "Ryokan Hoshi"),
         ("Dolomites 2025", "Cortina", "2025-07-19", "LH 1840", "Rifugio Auronzo"),
         ("Porto weekend", "Porto", "2025-02-21", "FR 8341", "Casa do Rio"),
         ("Berlin conference", "Berlin", "2025-05-06", "EW 9461", "Hotel Mitte"),
         ("Iceland ring road", "Reykjavik", "2024-08-10", "FI 451", "Guesthouse Vik")]

BOOKS = [("The Pragmatic Programmer", "Hunt and Thomas"), ("Designing Data-Intensive Applications",
         "Kleppmann"), ("Thinking in Systems", "Meadows"), ("The Overstory", "Powers"),
         ("Salt Fat Acid Heat", "Nosrat"), ("A Philosophy of Software Design", "Ousterhout"),
         ("Four Thousand Weeks", "Burkeman"), ("The Dispossessed", "Le Guin"),
         ("Working in Public", "Eghbal"), ("Braiding Sweetgrass", "Kimmerer")]

MOODS = ["Slow morning, coffee on the balcony.", "Long day of meetings.",
         "Ran 8 km along the river.", "Rain all day; read in the evening.",
         "Cello practice, scales and the Bach prelude.", "Cooked for friends.",
         "Quiet day, cleared the inbox.", "Climbing session, finally sent the orange route."]


class Writer:
    """Writes a person's files with file times spread over the past year."""

    def __init__(self, root: Path, now: float, rng: random.Random) -> None:
        self.root, self.now, self.rng = root, now, rng
        self.written: dict[str, str] = {}

    def note(self, path: str, text: str, age_days: float | None = None,
             fm: dict[str, object] | None = None) -> str:
        head = ""
        if fm:
            lines = []
            for k, v in fm.items():
                if isinstance(v, list):
                    lines.append(f"{k}: [{', '.join(str(x) for x in v)}]")
                else:
                    lines.append(f"{k}: {v}")
            head = "---\n" + "\n".join(lines) + "\n---\n"
        full = head + text.rstrip("\n") + "\n"
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(full, encoding="utf-8")
        age = self.rng.uniform(5, 330) if age_days is None else age_days
        t = self.now - age * DAY
        os.utime(target, (t, t))
        self.written[path] = full
        return path

    def blob(self, path: str, data: bytes) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def person_body(name: str, short: str, role: str, org: str, birthday: str) -> str:
    return (f"# {name}\n\n> [!info] {role.capitalize()} at {org}\n\n"
            f"- Role:: {role}\n- Company:: {org}\n- Birthday:: {birthday}\n\n"
            f"## Notes\n\n{short} prefers short written updates over calls.\n"
            f"Last caught up about the spring plans and shared a book recommendation.\n")


UNITS = frozenset("g kg ml l tsp tbsp".split())


def _amount(part: str) -> tuple[str, str]:
    """("500 g flour") -> ("500 g", "flour"); ("6 eggs") -> ("6", "eggs")."""
    words = part.split(" ")
    cut = 2 if len(words) > 2 and words[1] in UNITS else 1
    return " ".join(words[:cut]), " ".join(words[cut:])


def recipe_body(title: str, ingredients: str, method: str) -> str:
    rows = "\n".join(f"| {name} | {amount} |" for amount, name in map(
        _amount, ingredients.split(", ")))
    return (f"# {title}\n\n| Ingredient | Amount |\n| --- | --- |\n{rows}\n\n"
            f"## Method\n\nMix everything the evening before, shape in the morning, then "
            f"{method}. Serve warm with a simple salad.\n\n![[kitchen.jpg]]\n")


def runbook_body(title: str, primary: str, standby: str, port: str) -> str:
    return (f"# {title}\n\n> [!warning] Page the on-call SRE before starting.\n\n"
            f"1. Confirm `{primary}` is down from two regions.\n"
            f"2. Promote `{standby}` and point the service at it on port {port}.\n"
            f"3. Watch error rates for 15 minutes, then write up the incident.\n\n"
            f"Owner: [[Jonas Weber]]\n")


def trip_body(title: str, city: str, date: str, flight: str, hotel: str) -> str:
    return (f"# {title}\n\nFlight {flight} on {date}, staying at {hotel} in {city}.\n\n"
            f"## Packing\n\n- passport\n- rain jacket\n- walking shoes\n\n"
            f"## Ideas\n\nAsk [[Rafael Duarte]] for food tips; book the museum a week ahead.\n")


def build(root: Path, seed: int = 11) -> Truth:  # noqa: PLR0915 - one vault, written top down
    rng = random.Random(seed)
    now = dt.datetime.now(dt.UTC).timestamp()
    w = Writer(root, now, rng)
    t = Truth()
    w.blob("Attachments/kitchen.jpg", b"\xff\xd8\xff\xe0 not really a jpeg")
    w.blob("Attachments/heron-architecture.png", b"\x89PNG not really a png")

    # -- the vault's frame: readme, home, templates, maps (decay controls) -----------------
    home = [w.note("README.md", "# About this vault\n\nMy notes since 2023. Start at [[Home]].\n",
                   400),
            w.note("Home.md", "# Home\n\n- [[Maps/Cooking|Cooking]]\n- [[Maps/People|People]]\n"
                   "- [[Projects/Heron/Overview|Heron]]\n- [[Reading list]]\n", 380),
            w.note("Templates/Daily.md", "# {{date}}\n\n## Log\n\n- \n\n## Tomorrow\n\n- \n", 420),
            w.note("Templates/Meeting.md", "# {{title}}\n\nAttendees::\nDecisions::\n", 420),
            w.note("Templates/Person.md", "# {{title}}\n\n- Role::\n- Company::\n", 420)]
    t.control("decay", *home)
    cooking = "\n".join(f"- [[{r[0]}]]" for r in RECIPES)
    people = "\n".join(f"- [[{p[0]}]]" for p in PEOPLE)
    maps = [w.note("Maps/Cooking.md", f"# Cooking\n\n{cooking}\n", 390, {"tags": ["moc"]}),
            w.note("Maps/People.md", f"# People\n\n{people}\n", 390, {"tags": ["moc"]}),
            w.note("Reading list.md", "# Reading list\n\n" + "\n".join(
                f"- [[{b[0]}]]" for b in BOOKS) + "\n", 385)]
    t.control("decay", *maps)

    # -- people, projects, recipes, runbooks, trips, books ---------------------------------
    for i, (name, short, role, org) in enumerate(PEOPLE):
        w.note(f"People/{name}.md", person_body(name, short, role, org,
                                                f"{(i % 12) + 1:02d}-{(i * 3) % 27 + 1:02d}"),
               rng.uniform(20, 200), {"aliases": [short], "tags": ["person"]})
    for name, what, owner, tech, due in PROJECTS:
        days = [dt.date(2025, 1 + k * 2, 3 + k * 5) for k in range(4)]
        meetings = "\n".join(f"- [[{d} Sync]]" for d in days)
        w.note(f"Projects/{name}/Overview.md",
               f"# {name}\n\nThe {what}.\n\n- Owner:: [[{owner}]]\n- Status:: active\n"
               f"- Stack:: {tech}\n- Due:: {due}\n\n| Milestone | Date |\n| --- | --- |\n"
               f"| kickoff | 2025-01-10 |\n| beta | 2025-05-02 |\n\n"
               f"![[heron-architecture.png]]\n\n## Meetings\n\n{meetings}\n",
               rng.uniform(10, 120), {"tags": ["project"]})
        for day in days:
            w.note(f"Projects/{name}/{day} Sync.md",
                   f"# {name} sync {day}\n\nAttendees:: [[{owner}]], [[Chloe Martin]]\n\n"
                   f"- Decided to ship the {what} behind a flag.\n"
                   f"- [ ] follow up with [[{owner}]] about the {tech} budget\n",
                   (dt.date.today() - day).days)
    # generic names in different folders are different subjects: drift controls
    t.control("drift", *(f"Projects/{p[0]}/Overview.md" for p in PROJECTS))
    for title, ingredients, method in RECIPES:
        w.note(f"Recipes/{title}.md", recipe_body(title, ingredients, method),
               rng.uniform(20, 300), {"tags": ["recipe"]})
    for title, primary, standby, port in RUNBOOKS:
        w.note(f"Runbooks/{title}.md", runbook_body(title, primary, standby, port),
               rng.uniform(20, 200), {"tags": ["runbook"]})
    for title, city, date, flight, hotel in TRIPS:
        w.note(f"Travel/{title}.md", trip_body(title, city, date, flight, hotel),
               rng.uniform(20, 300), {"tags": ["travel"]})
    for title, author in BOOKS:
        w.note(f"Reading/{title}.md", f"# {title}\n\nBy {author}. Read on the train; three "
               f"ideas worth keeping, written up in my own words below.\n\n- idea one\n"
               f"- idea two\n- idea three\n\nRecommended by [[Hana Sato]].\n",
               rng.uniform(20, 300), {"tags": ["book"]})

    # -- daily notes: the bulk of a real vault -----------------------------------------------
    for k in range(130):
        day = dt.date.today() - dt.timedelta(days=2 + k * 2)
        who = PEOPLE[k % len(PEOPLE)][0]
        proj = PROJECTS[k % len(PROJECTS)][0]
        w.note(f"Daily/{day}.md", f"# {day}\n\n{MOODS[k % len(MOODS)]}\n\n## Log\n\n"
               f"- Talked to [[{who}]] about [[Projects/{proj}/Overview|{proj}]].\n"
               f"- #followup check the calendar for next week\n", (dt.date.today() - day).days)

    # -- consolidate: copies in other folders, near duplicates, one-fact controls ----------
    for title in ("Sourdough", "Postgres failover", "Kyoto 2024", "Thinking in Systems"):
        src = next(p for p in w.written if p.endswith(f"/{title}.md"))
        copy = f"Inbox/{title}.md" if title != "Kyoto 2024" else f"Clippings/{title}.md"
        w.note(copy, w.written[src], rng.uniform(3, 30))
        t.plant("consolidate", src, copy)
    for title in ("Banana bread", "Redis failover", "Porto weekend", "Four Thousand Weeks"):
        src = next(p for p in w.written if p.endswith(f"/{title}.md"))
        folder = src.rsplit("/", 1)[0]
        text = w.written[src] + "\nWritten up again from memory, same as before.\n"
        w.note(f"{folder}/{title} (2).md", text, rng.uniform(3, 30))
        t.plant("consolidate", src, f"{folder}/{title} (2).md")
    one_fact = [  # (source title, text change, variant title): one fact changed
        ("Pizza dough", ("| water | 650 g |", "| water | 700 g |"), "Pizza dough v2"),
        ("Focaccia", ("| salt | 12 g |", "| salt | 15 g |"), "Focaccia v2"),
        ("Dal tadka", ("| toor dal |", "| moong dal |"), "Dal tadka (moong)"),
        ("Risotto", ("| arborio rice |", "| carnaroli rice |"), "Risotto v2"),
        ("Granola", ("25 min at 160 C", "35 min at 150 C"), "Granola v2"),
        ("Pho", ("6 h", "9 h"), "Pho v2"),
        ("Chili", ("| chili powder | 2 tsp |", "| chili powder | 4 tsp |"), "Chili v2"),
        ("Shakshuka", ("| eggs | 6 |", "| eggs | 4 |"), "Shakshuka v2"),
        ("Search cluster restart", ("es-02", "es-03"), "Search cluster restart v2"),
        ("Kafka broker replacement", ("kafka-04", "kafka-05"), "Kafka broker replacement v2"),
        ("VPN gateway rotation", ("port 1194", "port 443"), "VPN gateway rotation v2"),
        ("DNS cutover", ("`ns2`", "`ns3`"), "DNS cutover v2"),
        ("Certificate renewal", ("Watch error rates for 15", "Watch error rates for 30"),
         "Certificate renewal v2"),
        ("Backup restore drill", ("Confirm `backup-01` is down", "Confirm `backup-01` is not down"),
         "Backup restore drill v2"),
        ("Lisbon 2025", ("TP 1331", "TP 1333"), "Lisbon 2025 v2"),
        ("Dolomites 2025", ("Rifugio Auronzo", "Rifugio Lavaredo"), "Dolomites 2025 v2"),
        ("Berlin conference", ("2025-05-06", "2025-05-13"), "Berlin conference v2"),
        ("Iceland ring road", ("Guesthouse Vik", "Guesthouse Hofn"), "Iceland ring road v2"),
        ("The Overstory", ("By Powers", "By Richard Powers"), "The Overstory v2"),
        ("The Dispossessed", ("Recommended by [[Hana Sato]]", "Recommended by [[Yuki Tanaka]]"),
         "The Dispossessed v2"),
    ]
    for title, (old, new), variant in one_fact:
        src = next(p for p in w.written if p.endswith(f"/{title}.md"))
        assert old in w.written[src], (title, old)
        folder = src.rsplit("/", 1)[0]
        w.note(f"{folder}/{variant}.md", w.written[src].replace(old, new), rng.uniform(3, 60))
        t.control("consolidate", src, f"{folder}/{variant}.md")
    # same file name, another folder, other content
    w.note("Archive 2023/Sourdough starter.md", "# Sourdough starter\n\nFed with rye 1:5:5, "
           "kept at 24 C, peaks after 6 hours.\n", 500)
    t.control("consolidate", "Archive 2023/Sourdough starter.md")

    # -- drift: stale facts in frontmatter and prose, contradictions; controls -------------
    today = dt.date.today()
    stale = [  # (path, sentence) whose period has ended
        ("Home admin/Office lease.md", "Our office lease runs until March 2021."),
        ("Home admin/Gym.md", "The gym membership expires 2024-05-01."),
        ("Home admin/Phone plan.md", "The student discount is valid through Q3 2023."),
        ("Home admin/Streaming trial.md", "Free trial valid till end of June 2024."),
        ("Home admin/Parking permit.md", "The parking permit is valid until 31 January 2025."),
        ("Home admin/Car insurance.md", "Cover with Hollis Mutual runs until 2024-11-30."),
        ("Home admin/Library card.md", "The library card expires in December 2023."),
        ("Home admin/Museum pass.md", "The museum pass is good until 15 August 2024."),
        ("Home admin/Bike lease.md", "The bike lease lasts until the end of 2023."),
        ("Home admin/Work visa.md", "My work visa is valid until April 2022."),
    ]
    for path, sentence in stale:
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\n{sentence} Paperwork is in the blue folder.\n", 200)
        t.plant("drift", path)
    future = today.year + 3
    fresh = [  # the same phrasings, periods not yet over, or history that ends nothing
        ("Home admin/Flat lease.md", f"Our flat lease runs until March {future}."),
        ("Home admin/Passport renewal.md", f"The passport expires {future}-05-01."),
        ("Home admin/Broadband.md", f"The broadband discount is valid through Q3 {future}."),
        ("Home admin/Warranty.md", f"The laptop warranty is valid till end of June {future}."),
        ("Home admin/Residence.md", "I lived in Berlin until March 2019, then moved here."),
        ("Home admin/Old job.md", "I worked at Fieldstone until 2022 and still miss the team."),
        ("Home admin/Pension.md", f"Contributions are fixed until {future}-12-31."),
        ("Home admin/Dentist.md", "The clinic opens at 08:30 until 18:00 on weekdays."),
    ]
    for path, sentence in fresh:
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\n{sentence} Paperwork is in the blue folder.\n", 200)
        t.control("drift", path)
    for k, (path, until) in enumerate([("Home admin/Passport.md", "2024-05-01"),
                                       ("Home admin/Health insurance.md", "2025-01-31"),
                                       ("Home admin/Tenancy.md", "2023-08-31")]):
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\nPolicy number AX-{4410 + k}.\n", 250,
               {"valid_until": until})
        t.plant("drift", path)
    for k, path in enumerate(["Home admin/Driving licence.md", "Home admin/Home insurance.md",
                              "Home admin/Season ticket.md"]):
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\nPolicy number BX-{5510 + k}.\n", 250,
               {"valid_until": f"{future}-0{k + 1}-15"})
        t.control("drift", path)
    contra = [("Jonas Weber", "Phone", "+44 7700 900123", "+44 7700 900456"),
              ("Grace Mensah", "Email", "grace@mensah.example", "g.mensah@mensah.example"),
              ("Oliver Brandt", "Rent", "1450 EUR", "1520 EUR")]
    for name, key, old, new in contra:
        w.note(f"Contacts/{name} details.md", f"# {name} details\n\n- {key}:: {old}\n", 150,
               {"subject": f'"[[{name}]]"'})
        w.note(f"Inbox/{name} update.md", f"# {name} update\n\n- {key}:: {new}\n", 10,
               {"subject": f'"[[{name}]]"'})
        t.plant("drift", f"Contacts/{name} details.md", f"Inbox/{name} update.md")
        t.control("drift", f"People/{name}.md")
    for name in ("Mei Lin", "Hana Sato", "Yuki Tanaka"):  # the same value twice: no conflict
        w.note(f"Contacts/{name} details.md", f"# {name} details\n\n- Company:: "
               f"{next(p[3] for p in PEOPLE if p[0] == name)}\n", 150,
               {"subject": f'"[[{name}]]"'})
        t.control("drift", f"Contacts/{name} details.md")

    # -- lint: links Obsidian leaves broken, and links it resolves -------------------------
    w.note("Notes/on-call-handbook.md", "# On-call handbook\n\nRotations, escalation and "
           "pager etiquette.\n", 60)
    w.note("Notes/team-charter.md", "# Team charter\n\nHow we decide and how we disagree.\n", 60)
    broken = [  # (path, link, the fix lint should name or "")
        ("Notes/Week 12 plan.md", "[[On-call handbook]]", "on-call-handbook"),
        ("Notes/Week 13 plan.md", "[[Team charter]]", "team-charter"),
        ("Notes/Week 14 plan.md", "[[priya-raman]]", "Priya Raman"),
        ("Notes/Week 15 plan.md", "[[Mei_Lin]]", "Mei Lin"),
        ("Notes/Week 16 plan.md", "[[jonas-weber]]", "Jonas Weber"),
        ("Notes/Week 17 plan.md", "[[Sourdough recipe]]", ""),
        ("Notes/Week 18 plan.md", "[[Quarterly plan 2019]]", ""),
        ("Notes/Week 19 plan.md", "[[Projects/Heron/Roadmap]]", ""),
        ("Notes/Week 20 plan.md", "[Budget](../Finance/Budget%202025.md)", ""),
        ("Notes/Week 21 plan.md", "![[whiteboard.png]]", ""),
        ("Notes/Week 22 plan.md", "[[Lisbon 2026]]", ""),
        ("Notes/Week 23 plan.md", "[[Amara Okafro]]", "Amara Okafor"),
        ("Notes/Week 24 plan.md", "[[Pancakes#Toppings]]", ""),
        ("Notes/Week 25 plan.md", "[[Samir Hadad]]", "Samir Haddad"),
        ("Notes/Week 26 plan.md", "[[Tomas Ortega]]", "Tomás Ortega"),
    ]
    for path, link, fix in broken:
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\n- Prep for Monday, see {link}.\n- Book the room.\n", 40)
        t.plant("lint", path)
        t.broken[path] = link
        if fix:
            t.fixes[path] = fix
    fine = [  # links Obsidian resolves: the same shapes, one thing different
        ("Notes/Week 32 plan.md", "[[on-call-handbook]]"),
        ("Notes/Week 33 plan.md", "[[team-charter|Team charter]]"),
        ("Notes/Week 34 plan.md", "[[priya raman]]"),
        ("Notes/Week 35 plan.md", "[[Mei]]"),
        ("Notes/Week 36 plan.md", "[[Jonas Weber]]"),
        ("Notes/Week 37 plan.md", "[[Sourdough]]"),
        ("Notes/Week 38 plan.md", "[[Projects/Heron/Overview]]"),
        ("Notes/Week 39 plan.md", "[Priya](../People/Priya%20Raman.md)"),
        ("Notes/Week 40 plan.md", "![[kitchen.jpg]]"),
        ("Notes/Week 41 plan.md", "[[Lisbon 2025]]"),
        ("Notes/Week 42 plan.md", "[[Amara Okafor]]"),
        ("Notes/Week 43 plan.md", "[[Pancakes#Method]]"),
        ("Notes/Week 44 plan.md", "[[Heron/Overview]]"),
        ("Notes/Week 45 plan.md", "[[Tomás Ortega]]"),
        ("Notes/Week 46 plan.md", "[Sourdough](Recipes/Sourdough.md)"),
        ("Notes/Week 47 plan.md", "`[[Not a link]]` in code"),
        ("Notes/Week 48 plan.md", "[[Week 12 plan]]"),
        ("Notes/Week 49 plan.md", "[site](https://example.org/Budget.md)"),
        ("Notes/Week 50 plan.md", "[[Dan]]"),
        ("Notes/Week 51 plan.md", "[[Risotto|the risotto]]"),
    ]
    for path, link in fine:
        title = path.rsplit("/", 1)[1][:-3]
        w.note(path, f"# {title}\n\n- Prep for Monday, see {link}.\n- Book the room.\n", 40)
        t.control("lint", path)

    # -- decay: notes that say they are done; cold inbox notes, linked or structural ones ---
    # (a person's note fades only on its own word: read blind on vaults nobody here wrote,
    # age alone in an inbox was wrong 12 of 12 times, so the cold inbox ideas are controls)
    for k in range(8):
        path = w.note(f"Ideas/Idea {k + 1}.md", f"# Idea {k + 1}\n\nMaybe a {MOODS[k][:-1]}"
                      f" app? Probably not.\n", 700 + k * 30, {"status": "abandoned"})
        t.plant("decay", path)
        path = w.note(f"Inbox/Thought {k + 1}.md", f"# Thought {k + 1}\n\nA {MOODS[k][:-1]}"
                      f" idea to try.\n", 700 + k * 30)
        t.control("decay", path)
    for k, (title, *_rest) in enumerate(RECIPES[:6]):
        os.utime(root / f"Recipes/{title}.md", (now - (600 + k) * DAY,) * 2)
        t.control("decay", f"Recipes/{title}.md")  # old, but the cooking map links them
    for p in ("Jonas Weber", "Priya Raman", "Hana Sato"):
        os.utime(root / f"People/{p}.md", (now - 650 * DAY,) * 2)
        t.control("decay", f"People/{p}.md")  # old hubs
    w.note("Inbox/Pinned reminder.md", "# Pinned reminder\n\nRenew the domain every March.\n",
           720, {"permanent": "true"})
    t.control("decay", "Inbox/Pinned reminder.md")
    for k in range(2):
        path = w.note(f"Inbox/Linked idea {k + 1}.md", f"# Linked idea {k + 1}\n\nA cellist's"
                      f" practice log, weekly.\n", 700)
        for d in range(3):
            w.note(f"Notes/Cello {k}-{d}.md", f"# Cello {k}-{d}\n\nSee [[Linked idea {k + 1}]]"
                   f" before lessons with [[Elena Petrova]].\n", 12)
        t.control("decay", path)
    return t
