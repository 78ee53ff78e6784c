"""Games of Marram: the event log of each game and the API and pages to play it."""
