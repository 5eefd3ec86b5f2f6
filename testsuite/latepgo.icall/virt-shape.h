// A class hierarchy whose virtual functions are defined in
// virt-shapes.cc and called from virt-main.cc.
struct shape
{
  virtual ~shape () {}
  virtual long area (long k) const = 0;
};

shape *make_square ();
shape *make_circle ();
