"""Games of any registered kind: the event log of each game and the API and pages to play it."""
