import CLibWebSockets

/// A client of the inspector's WebSocket protocol (being written).
enum InspectorClientPlaceholder {}
