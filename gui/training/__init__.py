"""The app's training side: the Train dock, the trainer that drives ``Session.train`` in short slices,
the device selector, and ``TrainingControls`` that holds them with the plots and views docks for the window."""
