"""The traveller's browser chat: pages, sign-in and the websocket protocol's frame rules."""
