"""The app's training side: the Train dock, the trainer that drives ``Session.train`` in short slices,
the device selector, and ``install(window)`` that adds them and the plots/views docks to the window."""
