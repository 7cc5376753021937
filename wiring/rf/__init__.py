"""The RFID boards' radio: antenna geometry and inductances (``geometry``), the chosen
parts' datasheet figures (``parts``), the design computed from a profile (``design``),
its ngspice netlist and runner (``spice``), the per-antenna checks and table
(``checks``), the placement rule (``placement``), air-interface timing (``timing``)
and the drawings (``drawing``). docs/rf.md explains it."""
