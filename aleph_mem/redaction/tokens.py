"""The token rules: each credential that carries its provider's literal prefix (``ghp_``,
``sk-proj-``, ``xoxb-``, ``AKIA``…) and a body of its shape. One scan of the text finds every
prefix (``text._token_runs``); a token wrapped across a line break is joined there."""

from __future__ import annotations

from aleph_mem.redaction.rule import Rule, token_rule

B = r"[A-Za-z0-9_-]"  # a URL-safe token character
TOKENS: tuple[Rule, ...] = (
    # access keys' ids and bearer/context credentials; not a user's, a role's, a group's or a
    # policy's unique id (AIDA, AROA, AGPA, ANPA…: ``"UserId": "AROA…:session"``)
    token_rule("aws-key-id", *((p, r"[A-Z0-9]{16}\b") for p in ("AKIA", "ASIA", "ABIA", "ACCA"))),
    token_rule("aws-session-token", ("IQoJb3JpZ2lu", r"[A-Za-z0-9+/=]{40,}"),
            ("FwoGZXIvYXdz", r"[A-Za-z0-9+/=]{40,}")),
    token_rule("github-token", *((p, r"[A-Za-z0-9]{30,}") for p in (
        "ghp_", "gho_", "ghu_", "ghs_", "ghr_")), ("github_pat_", r"[A-Za-z0-9_]{22,}")),
    token_rule("gitlab-token", *((p, B + "{20,}") for p in (
        "glpat-", "glrt-", "gldt-", "glptt-", "glcbt-", "glft-", "glsoat-", "glimt-",
        "gloas-", "glffct-", "glagent-", "GR1348941"))),
    token_rule("llm-key",
               ("sk-", r"(?:ant-[a-z0-9]+-|proj-|svcacct-|admin-|or-v1-)?" + B + "{20,}"),
            ("gsk_", r"[A-Za-z0-9]{40,}"), ("xai-", r"[A-Za-z0-9]{60,}"),
            ("r8_", r"[A-Za-z0-9]{30,}"), ("pplx-", r"[A-Za-z0-9]{40,}"),
            ("hf_", r"[A-Za-z0-9]{30,}\b")),
    token_rule("slack-token", *((p, r"[A-Za-z0-9._-]{10,}") for p in (
        "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"))),
    token_rule("cluster-token", ("K10", r"[0-9a-f]{64}::[a-z]+:[0-9a-f]{16,}")),
    token_rule("slack-token", ("xoxd-", r"[A-Za-z0-9%._-]{40,}")),
    token_rule("stripe-key", *((p, r"[A-Za-z0-9]{16,}") for p in (
        "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"))),
    token_rule("payment-token", ("sq0atp-", B + "{22,}"), ("sq0csp-", B + "{40,}"),
            ("EAAA", B + "{60,}"), ("access_token$production$", r"[0-9a-z]{16}\$[0-9a-f]{32}"),
            ("access_token$sandbox$", r"[0-9a-z]{16}\$[0-9a-f]{32}"),
            *((p, r"[a-fA-F0-9]{32}") for p in ("shpat_", "shpss_", "shpca_", "shppa_")),
            ("access-production-", r"[0-9a-f-]{36}"), ("access-development-", r"[0-9a-f-]{36}"),

            ("pdl_live_", r"[A-Za-z0-9_]{30,}"), ("pdl_sdbx_", r"[A-Za-z0-9_]{30,}")),
    token_rule("registry-token", ("npm_", r"[A-Za-z0-9]{36}\b"), ("pypi-AgE", B + "{50,}"),
            ("rubygems_", r"[a-f0-9]{48}"), ("oy2", r"[a-z0-9]{43}\b"),
            ("dckr_pat_", B + "{20,}"), ("cio", r"[A-Za-z0-9]{32}\b"),
            ("AKCp", r"[A-Za-z0-9]{60,}"), ("CLOJARS_", r"[a-z0-9]{60}"),
            ("cmVmdGtuOjAx", r"[A-Za-z0-9]{40,}")),
    token_rule("ci-token", ("ATBB", r"[A-Za-z0-9_=.-]{28,}"), ("ATATT3", r"[A-Za-z0-9_=.-]{100,}"),
            ("bkua_", r"[a-f0-9]{40}"), ("CCIPAT_", r"[A-Za-z0-9_]{40,}")),
    token_rule("cloud-token", ("ya29.", B + "{20,}"), ("GOCSPX-", B + "{20,}"),
            ("AIza", B + "{35}"),
            *((p, r"[a-f0-9]{64}") for p in ("dop_v1_", "doo_v1_", "dor_v1_")),
            ("HRKU-", B + "{40,}"), ("LTAI", r"[A-Za-z0-9]{12,28}\b")),
    token_rule("secret-manager-token", *((p, B + "{24,}") for p in ("hvs.", "hvb.", "hvr.")),
            *((p, r"[A-Za-z0-9._-]{40,}") for p in (
                "dp.st.", "dp.pt.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit.")),
            ("ops_eyJ", r"[A-Za-z0-9_=-]{100,}"), ("pul-", r"[a-f0-9]{40}")),
    token_rule("chat-token", ("SK", r"[0-9a-f]{32}\b"), ("syt_", r"[A-Za-z0-9_]{20,}")),
    token_rule("payment-token", ("xnd_production_", r"[A-Za-z0-9]{40,}"),
               ("xnd_development_", r"[A-Za-z0-9]{40,}")),
    token_rule("api-key", ("ntn_", r"[A-Za-z0-9]{40,}"), ("secret_", r"[A-Za-z0-9]{43}\b"),
            ("NRAK-", r"[A-Z0-9]{27}\b"), ("sntrys_", r"[A-Za-z0-9+/=_-]{40,}"),
            ("sntryu_", r"[a-f0-9]{64}"), ("lin_api_", r"[A-Za-z0-9]{40}"),
            ("PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"), ("figd_", B + "{40,}"),
            ("CFPAT-", B + "{43}"), ("sbp_", r"[a-f0-9]{40}"),
            ("NNSXS.", r"[A-Z0-9]{39}\.[A-Z0-9]{64}"),  # The Things Network's API keys
            ("private-", r"[0-9a-f]{32}(?=/(?:basic|full)\.ics)"),  # a calendar's secret address
            ("pcsk_", r"[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
            ("lsv2_pt_", r"[a-f0-9]{32}_[a-f0-9]{10}"), ("lsv2_sk_", r"[a-f0-9]{32}_[a-f0-9]{10}"),
            ("glsa_", r"[A-Za-z0-9]{32}_[a-f0-9]{8}"), ("glc_", r"[A-Za-z0-9+/=]{32,}"),
            ("dapi", r"[a-f0-9]{32}(?:-\d)?\b"), ("FLWSECK_TEST-", r"[a-f0-9]{32}-X"),
            ("FLWSECK-", r"[a-f0-9]{32}-X"), ("key-", r"[a-f0-9]{32}\b"),
            ("sl.", B + "{100,}"), ("tfp_", r"[A-Za-z0-9_]{40,}"),
            ("shippo_live_", r"[a-f0-9]{40}"), ("shippo_test_", r"[a-f0-9]{40}"),
            ("pat", r"[A-Za-z0-9]{14}\.[a-f0-9]{64}"), ("sk.eyJ", B + r"{20,}\." + B + "{20,}"),
            ("fm2_", r"[A-Za-z0-9_=+/-]{40,}"), ("fo1_", r"[A-Za-z0-9_=+/-]{40,}"),
            ("phx_", r"[A-Za-z0-9]{30,}"), ("dt0c01.", r"[A-Z0-9]{24}\.[A-Z0-9]{64}"),
            ("hcaik_", r"[a-z0-9]{40,}"), ("hcxik_", r"[a-z0-9]{40,}"),
            ("NNSXS.", r"[A-Z0-9]{30,45}\.[A-Z0-9]{60,70}"), ("live_", r"[A-Za-z0-9]{30}\b"),
            *((p, r"[A-Z2-7]{55}") for p in ("SUA", "SAA", "SOA"))),
    token_rule("private-key", *((p, "[1-9A-HJ-NP-Za-km-z]{100,}") for p in (
        "xprv", "tprv", "yprv", "zprv", "uprv", "vprv"))),
    token_rule("private-key", ("AGE-SECRET-KEY-1", r"[0-9A-Z]{58}")),
    token_rule("sendgrid-key", ("SG.", B + r"{16,}\." + B + "{16,}")),
    token_rule("api-key", ("xkeysib-", r"[0-9a-f]{64}-[A-Za-z0-9]{16}"),
            ("xsmtpsib-", r"[0-9a-f]{64}-[A-Za-z0-9]{16}")),
    token_rule("api-key", ("ctfd_", r"[0-9a-f]{64}"), ("pnu_", r"[A-Za-z0-9]{36}")),  # CTFd's,
    # Prefect's keys; Cloud Storage's HMAC key id
    token_rule("access-key-id", ("GOOG1", r"[A-Z0-9]{50,}")),
    # Klaviyo's private key (its public one is a six-letter site id), WooCommerce's key pair
    token_rule("api-key", ("pk_", r"[0-9a-f]{34}\b"), ("ck_", r"[0-9a-f]{40}\b"),
               ("cs_", r"[0-9a-f]{40}\b")),
    # an access key id by its prefix, as AWS's AKIA: Tencent Cloud's
    token_rule("access-key-id", ("AKID", r"[A-Za-z0-9]{32}")),
    # Yandex Cloud's static key id, Alibaba's temporary (STS) key id
    token_rule("access-key-id", ("YCAJ", r"[A-Za-z0-9_-]{20,}"), ("STS.", r"[A-Za-z0-9]{20,}")),
    token_rule("api-key", ("APP_USR-", r"\d{10,20}-\d{6}-[0-9a-f]{32}-\d{6,12}")),  # Mercado Pago
    token_rule("cookie", ("CfDJ8", B + "{60,}")),  # ASP.NET Core's protected cookie or token
    token_rule("jwt", ("eyJ", B + r"{8,}\.(?:eyJ" + B + r"{8,}\." + B + "{8,}|"  # a JWS; a JWE
                    + B + r"{6}\." + B + r"{27}(?!" + B + ")|"  # a Flask session (itsdangerous)
                    r"(?:" + B + r"{16,})?\." + B + r"{8,}\." + B + r"{16,}\." + B + "{8,})")),
)
