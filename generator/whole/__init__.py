"""A whole game in one PDF: a contents page, then each component's sheets.

plan.py imposes every component (boards split over sheets, small one-sided pieces nested into
other sheets' free room); contents.py writes the first page; document.py draws it all.
"""
