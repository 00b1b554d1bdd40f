"""The small kernel every ruleset shares: its JSON reader, refusals, citations, number formats.

- :mod:`.reader`: the one strict reader of sheet and design JSON.
- :mod:`.refusal`: "the rules do not allow this" as one value.
- :mod:`.citation`: a rule citation (ruleset, section, decision) instead of a free string.
- :mod:`.formatting`: money, signed numbers and percentages written one way.

The values a procedure returns (:class:`~carwars_desktop.procedures.Refusal`,
:class:`~carwars_desktop.procedures.Citation`) live in the procedure framework, one
layer below the rules, because the framework carries them; this package is where a
ruleset gets them from, with the helpers it needs.
"""
